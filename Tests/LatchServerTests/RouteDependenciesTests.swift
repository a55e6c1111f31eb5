import Foundation
import Testing

/// Issue 44 §3, closed world: the edge in Hummingbird's own shape. A route collection gets its services when
/// the router is built (its stored properties), so a handler's dependencies are in its type; the request
/// context carries who is asking (`RequestCaller`), never the application. A handler or request accessor
/// that reaches the application from a request fails here, and so does a context that carries it again.
@Suite("Issue 44 §3: route collections hold their services; the context holds the caller")
struct RouteDependenciesTests {
    /// LatchServer's sources, read as the ownership scan reads them (comment lines left out).
    static let sources = TableOwnershipTests.sources

    /// Reading the application (or its services) from a request or its context.
    static let applicationFromRequest = try! NSRegularExpression(
        pattern: #"\blatchApplication\b|\b(req|request|latchRequest)\.(latch|db|identityServices|latchMetrics)\b"#
            + #"|\bcontext\.(latch|application|db)\b"#)

    /// The application and its services, as a request accessor would name them.
    static let services = try! NSRegularExpression(
        pattern: #"\b(latch|db|database|latchApplication|LatchApplication|LatchServices|identityServices)\b"#
            + #"|\b(latchMetrics|LatchMetrics)\b"#)

    static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        TableOwnershipTests.matches(expression, text)
    }

    static func withoutCommentLines(_ text: String) -> String { TableOwnershipTests.withoutCommentLines(text) }

    static func files() throws -> [(path: String, text: String)] { try TableOwnershipTests.files() }

    /// The bodies of `extension LatchRequest { … }` in `text` (up to the extension's closing `}` line).
    static func requestExtensions(_ text: String) -> [String] {
        var bodies: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("extension LatchRequest ") || line.hasPrefix("extension LatchRequest{") {
                current = []
            } else if current != nil, line == "}" {
                bodies.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return bodies
    }

    @Test("44 §3: no file of LatchServer reads the application or its services from a request")
    func test_44_3_noHandlerReachesTheApplicationThroughTheRequest() throws {
        let files = try Self.files()
        #expect(files.count > 100, "the scan read the sources")
        for (path, text) in files where Self.matches(Self.applicationFromRequest, text) {
            Issue.record("\(path) reads the application from a request: give its route collection the service")
        }
    }

    @Test("44 §3: the request's own accessors name no service: what they know is the request and its caller")
    func test_44_3_requestAccessorsHoldNoServices() throws {
        var extensions = 0
        for (path, text) in try Self.files() {
            for body in Self.requestExtensions(text) {
                extensions += 1
                if Self.matches(Self.services, body) {
                    Issue.record("\(path) has a LatchRequest accessor that reaches a service: move it to its routes")
                }
            }
        }
        #expect(extensions >= 3, "the scan found the request's extensions (caller, rate limit key, page limit)")
    }

    @Test("44 §3: the request context carries the caller (identity, address, language), not the application")
    func test_44_3_theContextCarriesTheCallerNotTheApplication() throws {
        let context = Self.withoutCommentLines(
            try String(
                contentsOf: Self.sources.appendingPathComponent("Edge/LatchRequestContext.swift"), encoding: .utf8))
        #expect(!Self.matches(Self.services, context), "the context names no application or service")
        #expect(context.contains("var caller = RequestCaller()"))
        let caller = Self.withoutCommentLines(
            try String(contentsOf: Self.sources.appendingPathComponent("Edge/RequestCaller.swift"), encoding: .utf8))
        for member in ["var identity: SignedInSession?", "var clientAddress: String?", "var language: LatchLanguage"] {
            #expect(caller.contains(member), "RequestCaller has \(member)")
        }
        #expect(!Self.matches(Self.services, caller))
    }

    @Test("44 §3: the scans can fail (a request accessor that opens the database is found)")
    func test_44_3_theScansFindAnAccessorThatReachesTheApplication() {
        let accessor = """
            extension LatchRequest {
                var sessions: SessionService { SessionService(latch: latch, caller: try caller, db: db) }
            }
            """
        #expect(Self.requestExtensions(accessor).count == 1)
        #expect(Self.matches(Self.services, Self.requestExtensions(accessor)[0]))
        #expect(Self.matches(Self.applicationFromRequest, "let rows = try await query(on: req.db)"))
        #expect(Self.matches(Self.applicationFromRequest, "context.latchApplication = application"))
        #expect(!Self.matches(Self.applicationFromRequest, "let rows = try await query(on: database(req))"))
    }
}
