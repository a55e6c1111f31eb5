import Foundation
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// `GET /openapi.json` serves the OpenAPI 3.1 document, and the document describes exactly the
/// routes the server registers: no route undocumented, no documented route missing.
@Suite("OpenAPI document")
struct OpenAPITests {
    /// One operation: an HTTP method and an OpenAPI path template (`/v1/sessions/{id}`).
    struct Operation: Hashable, Comparable, CustomStringConvertible {
        let method: String
        let path: String

        var description: String { "\(method) \(path)" }

        static func < (lhs: Operation, rhs: Operation) -> Bool { (lhs.path, lhs.method) < (rhs.path, rhs.method) }
    }

    static let httpMethods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    @Test("GET /openapi.json serves an OpenAPI 3.1.0 document as JSON")
    func openAPIDocumentIsServedAsOpenAPI31() async throws {
        try await withServer(.sqlite) { server in
            let response = try await server.send(.GET, "/openapi.json")

            #expect(response.status == 200)
            #expect(response.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
            #expect(response.json["openapi"] as? String == "3.1.0")
            let info = try #require(response.json["info"] as? [String: Any])
            #expect(info["title"] as? String == "Latch")
            #expect((response.json["paths"] as? [String: Any])?.isEmpty == false)
        }
    }

    @Test("The document's (method, path) pairs are exactly the server's registered routes")
    func openAPIDocumentMatchesRegisteredRoutes() async throws {
        try await withServer(.sqlite) { server in
            let response = try await server.send(.GET, "/openapi.json")
            try #require(response.status == 200)
            let paths = try #require(
                response.json["paths"] as? [String: [String: Any]], "paths: \(response.text.prefix(200))")

            var documented: Set<Operation> = []
            for (path, item) in paths {
                for key in item.keys where Self.httpMethods.contains(key) {
                    documented.insert(Operation(method: key.uppercased(), path: path))
                }
            }

            let registered = Set(
                server.app.routeTable.all
                    .filter { $0.method != "HEAD" }
                    .map { Operation(method: $0.method, path: Self.openAPIPath($0.segments)) })

            let undocumented = registered.subtracting(documented).sorted()
            let unregistered = documented.subtracting(registered).sorted()
            #expect(undocumented.isEmpty, "registered but not in openapi.json: \(undocumented)")
            #expect(unregistered.isEmpty, "in openapi.json but not registered: \(unregistered)")
            #expect(
                registered.contains(Operation(method: "GET", path: "/dev/outbox")),
                "the test server runs with the development outbox")
        }
    }

    @Test("Every bearer-protected operation answers 401 AUTH_004 without a token, as the document says")
    func documentedBearerOperationsRefuseAnonymousRequests() async throws {
        try await withServer(.sqlite) { server in
            let document = try await server.send(.GET, "/openapi.json").json
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let defaultSecurity = document["security"] as? [[String: Any]] ?? []
            var checked = 0
            for (path, item) in paths {
                for (key, value) in item where Self.httpMethods.contains(key) {
                    let operation = try #require(value as? [String: Any])
                    let security = operation["security"] as? [[String: Any]] ?? defaultSecurity
                    guard security.contains(where: { $0["bearerAuth"] != nil }) else { continue }
                    let concrete = path.replacingOccurrences(of: "{id}", with: UUID().uuidString.lowercased())
                    let answer = try await server.send(HTTPMethod(rawValue: key.uppercased()), concrete)
                    #expect(
                        answer.status == 401 && answer.errorCode == "AUTH_004",
                        "\(key.uppercased()) \(path): \(answer.status) \(answer.text)")
                    let responses = operation["responses"] as? [String: Any]
                    #expect(responses?["401"] != nil, "\(key.uppercased()) \(path) documents its 401")
                    checked += 1
                }
            }
            #expect(
                checked == 42,
                "the forty-two signed-in operations (24 + the five of passkeys + the four of issue 19's containment + issue 30's emailed code + issue 31's App Attest challenge + issue 43's two of the phone's QR approvals, two of its push token and three of its push approvals)"
            )
        }
    }

    /// Route path components as an OpenAPI path template: `["v1", "sessions", ":id"]` → `/v1/sessions/{id}`.
    static func openAPIPath(_ segments: [String]) -> String {
        "/" + segments.map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : $0 }.joined(separator: "/")
    }
}
