import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// Issue 12 §3: `GET /health/ready` checks the database (503 when it cannot be reached); `/health`
/// stays the liveness answer.
@Suite("Readiness (issue 12 §3)")
struct ReadinessTests {
    @Test("test_12_readyAnswers200WhenTheDatabaseAnswers", arguments: TestDatabase.all)
    func test_12_readyAnswers200WhenTheDatabaseAnswers(database: TestDatabase) async throws {
        try await withServer(database) { server in
            // The test servers give the check far longer than a loaded machine needs (the 2 s default
            // once met a database still busy from start-up: 503): every probe here must answer 200.
            let ready = try await server.send(.GET, "/health/ready")
            var again: [UInt] = []
            for _ in 0..<3 { again.append(try await server.send(.GET, "/health/ready").status) }
            let together = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<10 { group.addTask { try await server.send(.GET, "/health/ready").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(ready.status == 200)
            #expect(ready.json["status"] as? String == "ok")
            #expect(again == [200, 200, 200], "every probe after the first too")
            #expect(together == Array(repeating: 200, count: 10), "probes at once share one check")
        }
    }

    @Test("test_12_readyAnswers503WhenPostgreSQLCannotBeReached, and /health still 200")
    func test_12_readyAnswers503WhenPostgreSQLCannotBeReached() async throws {
        guard case .postgres(let url)? = TestDatabase.all.last else { return } // SQLite only: nothing to cut
        var components = try #require(URLComponents(string: url))
        let forwarder = try await TCPForwarder.start(to: components.host ?? "127.0.0.1", port: components.port ?? 5432)
        components.host = "127.0.0.1"
        components.port = forwarder.port
        guard case .postgres(_, let searchPath) = try await TestDatabase.postgres(url: url).makeLocation() else {
            return
        }
        let location = LatchConfig.DatabaseLocation.postgres(
            url: try #require(components.string), searchPath: searchPath)
        // The standard 2 s check, not the test servers' long one (how long a wait is, is not the point
        // here: that the probe gives up by itself, long before the pool's 10 s).
        let server = try await TestServer.start(
            .postgres(url: url), sharing: location, adjust: { $0.readinessTimeout = .seconds(2) })
        do {
            #expect(try await server.send(.GET, "/health/ready").status == 200, "reachable through the forwarder")

            await forwarder.cut()
            let started = ContinuousClock.now
            let ready = try await server.send(.GET, "/health/ready")
            let took = ContinuousClock.now - started
            let live = try await server.send(.GET, "/health")

            #expect(ready.status == 503, "\(ready.text)")
            #expect(ready.errorCode == "INTERNAL_ERROR")
            #expect(ready.errorBody?.reasons == ["database_unreachable"])
            #expect(ready.headers.first(name: "Retry-After") == "5")
            #expect(took < .seconds(10), "answered by the check's own timeout, not the pool's 10 s: \(took)")
            #expect(live.status == 200, "liveness does not depend on the database")
        } catch {
            await forwarder.cut()
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }
}
