import Crypto
import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import SQLKit
import Testing

@testable import LatchServer

/// C5 (issue 21): each rotation records the token it hands out, as a SHA-256 hash with its counter, in the
/// statement that moves the session on (on SQLite a trigger does it; on PostgreSQL a `WITH` clause). A token
/// that was handed out but not recorded could not be used; an old one not recorded could be replayed unseen.
@Suite("C5 refresh tokens are recorded by the rotation")
struct RefreshRecordTests {
    @Test("C5 every token a rotation hands out is recorded, hashed, with its counter", arguments: TestDatabase.all)
    func C5_everyRotationRecordsItsToken(database: TestDatabase) async throws {
        try await withServer(database) { server in
            var tokens = [try await server.signUp()]
            for _ in 0..<3 {
                let refreshed = try await server.refresh(tokens.last!.refreshToken)
                try #require(refreshed.status == 200, "\(refreshed.text)")
                tokens.append(try refreshed.decode(TokenResponse.self))
            }
            let session = try #require(UUID(uuidString: tokens[0].sessionId))

            let rows = try await (server.app.db as! any SQLDatabase).raw(
                "SELECT token_hash, counter FROM refresh_tokens WHERE session_id = \(bind: session) ORDER BY counter"
            ).all()

            let recorded = try rows.map {
                (try $0.decode(column: "counter", as: Int.self), try $0.decode(column: "token_hash", as: String.self))
            }
            #expect(recorded.map(\.0) == [0, 1, 2, 3])
            #expect(recorded.map(\.1) == tokens.map { Hex.lowercase(SHA256.hash(data: Data($0.refreshToken.utf8))) })
            // The oldest token is a replay now: recorded, so it is recognised and ends the session.
            #expect(try await server.refresh(tokens[0].refreshToken).errorCode == "AUTH_004")
            #expect(try await server.refresh(tokens[3].refreshToken).errorCode == "AUTH_004")
        }
    }

    @Test(
        "C5 a rotation that does not move the session (revoked, or rotated first) records no token",
        arguments: TestDatabase.all)
    func C5_aRotationThatDoesNotMoveRecordsNothing(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let session = try #require(UUID(uuidString: tokens.sessionId))
            let sql = server.app.db as! any SQLDatabase
            let store = server.app.latch.rotation.store
            let now = server.clock.now.timeIntervalSince1970

            // Another request rotated it first: the session is at 0, not 5.
            let lostRace = try await store.rotate(
                session: session, from: 5, recording: SecretBox.hash("lost-race-token"), expires: now + 60, now: now,
                on: server.app.db)
            // Revoked (an account deletion, a sign-out) between the read and the write.
            try await sql.raw("UPDATE sessions SET revoked_at = \(bind: now) WHERE id = \(bind: session)").run()
            let revoked = try await store.rotate(
                session: session, from: 0, recording: SecretBox.hash("revoked-token"), expires: now + 60, now: now,
                on: server.app.db)

            #expect(!lostRace && !revoked)
            let rows = try await sql.raw(
                "SELECT counter FROM refresh_tokens WHERE session_id = \(bind: session)"
            ).all()
            #expect(try rows.map { try $0.decode(column: "counter", as: Int.self) } == [0])
        }
    }
}
