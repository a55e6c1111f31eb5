import Foundation
import Testing

/// Issue 29 §1, closed world: latchd's rules live in services that import no web framework. A file of
/// LatchServer that imports one is either the HTTP edge (by its name, or on `edgeFiles` with what it
/// does at the edge) or on `notYetMoved` with the reason it still needs the framework.
/// A new service that reaches for the framework fails here, and so does a listed file that no longer
/// needs it (the lists only shrink honestly).
@Suite("Issue 29 §1: the framework boundary")
struct FrameworkBoundaryTests {
    /// The web frameworks a service must not import.
    static let frameworks = ["Vapor", "Hummingbird"]

    /// Files that are the HTTP edge by convention: the `Edge` folder (request context, routes, application),
    /// and elsewhere routes, the request's accessors and middleware.
    static func isEdgeByName(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return path.hasPrefix("Edge/") || name.hasSuffix("Routes.swift") || name.hasPrefix("Request+")
            || name.hasSuffix("Middleware.swift")
    }

    /// Edge files whose names do not say so, with what they do at the edge.
    static let edgeFiles: [String: String] = [
        "Sessions/SignedIn.swift": "RequireSignedIn: authenticates the request's bearer token",
        "Support/Content+Latch.swift": "the answers' types as Hummingbird response bodies"
    ]

    /// Core files that still import the framework, each with what keeps it there. Empty since the edge moved to
    /// Hummingbird (issue 29 §2): a file added here needs a reason.
    static let notYetMoved: [String: String] = [:]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LatchServer")

    /// Every Swift file of LatchServer (paths relative to its folder) that imports a web framework.
    static func filesImportingAFramework() throws -> Set<String> {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var found: Set<String> = []
        for case let path as String in enumerator where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.contains(" import ") }
            if imports.contains(where: { line in frameworks.contains { line.hasSuffix("import \($0)") } }) {
                found.insert(path)
            }
        }
        return found
    }

    @Test("29 §1: only the HTTP edge imports the web framework; every other file is a framework-free service")
    func test_29_1_onlyTheEdgeImportsTheWebFramework() throws {
        let importing = try Self.filesImportingAFramework()
        #expect(importing.count > 10, "the scan found the edge's files (it reads the sources)")
        for path in importing.sorted()
        where !Self.isEdgeByName(path) && Self.edgeFiles[path] == nil && Self.notYetMoved[path] == nil {
            Issue.record(
                "\(path) imports a web framework but is neither the HTTP edge nor listed as not yet moved: move its rules into a service"
            )
        }
    }

    @Test("29 §1: every file listed as edge or not yet moved still imports the framework (the lists shrink)")
    func test_29_1_theListsNameOnlyFilesThatStillNeedTheFramework() throws {
        let importing = try Self.filesImportingAFramework()
        for path in Array(Self.edgeFiles.keys) + Array(Self.notYetMoved.keys) where !importing.contains(path) {
            Issue.record("\(path) no longer imports a web framework (or is gone): take it off the list")
        }
    }

    @Test("29 §1: the check can fail (a service importing the framework is not the edge)")
    func test_29_1_aServiceImportingTheFrameworkIsFound() {
        #expect(!Self.isEdgeByName("Verification/VerificationService.swift"))
        #expect(Self.isEdgeByName("Verification/VerificationRoutes.swift"))
        #expect(Self.isEdgeByName("Verification/Request+StepUp.swift"))
        #expect(Self.edgeFiles["Verification/VerificationService.swift"] == nil)
    }
}
