import FluentPostgresDriver
import Foundation
import LatchCore
import LatchTestSupport
import Testing

@testable import LatchServer

/// Issue 44 §4: on PostgreSQL, latchd's refresh runs its two prepared statements on a `PostgresClient` of its
/// own, set up from the same URL as Fluent's connections.
@Suite("Issue 44 §4: the prepared PostgreSQL client")
struct PreparedPostgresTests {
    static let postgresOnly = TestDatabase.all.filter { if case .postgres = $0 { true } else { false } }

    @Test(
        "44 §4: latchd's refresh reads and rotates on the prepared client, in the test's own schema",
        arguments: postgresOnly)
    func test_44_4_refreshRunsOnThePreparedClient(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let prepared = try #require(server.app.latch.rotation.store.prepared?.postgres, "PostgreSQL opens it")
            var tokens = try await server.signUp()
            #expect(prepared.statements == 0, "signing up runs nothing on it")
            for _ in 0..<3 {
                let refreshed = try await server.refresh(tokens.refreshToken)
                try #require(refreshed.status == 200, "\(refreshed.text)")
                tokens = try refreshed.decode(TokenResponse.self)
            }
            // The schema's tables are only on the search path the startup message set: the refreshes found
            // them, and their rotations landed on the session row Fluent reads.
            #expect(prepared.statements == 6, "a find and a rotation per refresh")
            let sessionID = try #require(UUID(uuidString: tokens.sessionId))
            #expect(try await Session.find(sessionID, on: server.app.db)?.counter == 3)
            #expect(try await server.refresh(tokens.refreshToken).status == 200, "the latest token still refreshes")
            guard case .postgres(let url, let searchPath?) = server.location, let schema = searchPath.first else {
                Issue.record("a PostgreSQL test server has a schema of its own")
                return
            }
            let named = try await TestDatabase.withPostgres(url) { sql in
                try await sql.raw(
                    """
                    SELECT pid FROM pg_stat_activity WHERE application_name = \(bind: "latch-refresh-statements \(schema)")
                    """
                ).all().count
            }
            #expect((1...4).contains(named), "its connections are named after the schema (\(named))")
        }
    }

    @Test("44 §4: the prepared client's TLS mode is the URL's, as Fluent's connections read it")
    func test_44_4_tlsModeFollowsTheURL() {
        let base = "postgres://latch@db.internal:5433/latch"
        #expect(PreparedPostgres.tlsMode(url: base) == .prefer)
        #expect(PreparedPostgres.tlsMode(url: base + "?sslmode=disable") == .disable)
        #expect(PreparedPostgres.tlsMode(url: base + "?tls=false") == .disable)
        #expect(PreparedPostgres.tlsMode(url: base + "?sslmode=require") == .require)
        #expect(PreparedPostgres.tlsMode(url: base + "?sslmode=verify-full") == .require)
        #expect(PreparedPostgres.tlsMode(url: base + "?sslmode=allow") == .prefer)
        #expect(PreparedPostgres.tlsMode(url: base + "?sslmode=disable&sslmode=require") == .require, "the last one")
    }

    @Test("44 §4: the prepared client connects where the URL says, with the schema search path quoted")
    func test_44_4_configurationFollowsTheURL() throws {
        let tcp = try PreparedPostgres.configuration(
            url: "postgres://latch:secret@db.internal:5433/latch?sslmode=disable", searchPath: ["t1", "odd\"name"])
        #expect(tcp.host == "db.internal" && tcp.port == 5433 && tcp.unixSocketPath == nil)
        #expect(tcp.username == "latch" && tcp.password == "secret" && tcp.database == "latch")
        #expect(tcp.options.additionalStartupParameters.map(\.0) == ["search_path"])
        #expect(tcp.options.additionalStartupParameters.map(\.1) == ["\"t1\",\"odd\"\"name\""])

        let socket = try PreparedPostgres.configuration(
            url: "postgres+uds://latch@localhost/tmp/.s.PGSQL.5432#latch", searchPath: nil)
        #expect(socket.unixSocketPath == "/tmp/.s.PGSQL.5432" && socket.host == nil && socket.database == "latch")
        #expect(socket.options.additionalStartupParameters.isEmpty)

        #expect(throws: (any Error).self) { try PreparedPostgres.configuration(url: "mysql://x@y/z", searchPath: nil) }
    }
}
