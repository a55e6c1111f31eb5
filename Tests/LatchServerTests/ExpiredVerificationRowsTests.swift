import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import SQLKit
import Testing

@testable import LatchServer

/// What verifications leave behind is deleted once nothing can use it (found while measuring issue 29 §3:
/// the challenge, verification and proof tables grew by a row per verification for ever).
@Suite("Expired verification rows are deleted (issue 29 §3)")
struct ExpiredVerificationRowsTests {
    static let day: Double = 86_400

    @Test(
        "29 §3 a challenge an hour after it expired, a verification a day after, a proof two days after are deleted; younger rows stay, and a proof redeemed 23 hours ago still counts towards the daily limit",
        arguments: TestDatabase.all)
    func test_29_3_expiredVerificationRowsAreDeleted(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let user = try #require(UUID(uuidString: try await server.signUp().user.id))
            let db = server.app.db
            let now = server.clock.now.timeIntervalSince1970
            func challenge(expiredAgo seconds: Double) async throws -> UUID {
                let id = UUID()
                try await db.sql.raw(
                    """
                    INSERT INTO signature_challenges (id, challenge, expires_at)
                    VALUES (\(bind: id), \(bind: "c"), \(bind: now - seconds))
                    """
                ).run()
                return id
            }
            func verification(expiredAgo seconds: Double) async throws -> UUID {
                let id = UUID()
                try await db.sql.raw(
                    """
                    INSERT INTO verifications (id, user_id, action, digest, attempts, expires_at)
                    VALUES (\(bind: id), \(bind: user), \(bind: "withdrawal"), \(bind: "d"), 0, \(bind: now - seconds))
                    """
                ).run()
                return id
            }
            func proof(expiredAgo seconds: Double, redeemedAgo: Double? = nil) async throws -> String {
                let hash = UUID().uuidString
                try await db.sql.raw(
                    """
                    INSERT INTO verification_tokens
                      (token_hash, user_id, action, digest, method, verified_at, expires_at, redeemed_at, amount, unit)
                    VALUES (\(bind: hash), \(bind: user), \(bind: "withdrawal"), \(bind: "d"), \(bind: "biometric"),
                      \(bind: now - seconds - 300), \(bind: now - seconds), \(bind: redeemedAgo.map { now - $0 }),
                      \(bind: "100"), \(bind: "USDT"))
                    """
                ).run()
                return hash
            }
            _ = try await challenge(expiredAgo: 3_601)
            let youngChallenges = [try await challenge(expiredAgo: 3_599), try await challenge(expiredAgo: -100)]
            _ = try await verification(expiredAgo: Self.day + 1)
            let youngVerification = try await verification(expiredAgo: Self.day - 1)
            _ = try await proof(expiredAgo: 2 * Self.day + 1, redeemedAgo: 2 * Self.day + 60)
            let youngProof = try await proof(expiredAgo: 2 * Self.day - 1)
            let countedProof = try await proof(expiredAgo: 23 * 3600 - 60, redeemedAgo: 23 * 3600)

            #expect(try await ExpiredVerificationRows.prune(now: now, on: db) == 3)

            func ids(_ table: String, _ key: String) async throws -> Set<String> {
                Set(
                    try await db.sql.raw("SELECT \(unsafeRaw: key) AS k FROM \(unsafeRaw: table)").all().map {
                        if table == "verification_tokens" { return try $0.decode(column: "k", as: String.self) }
                        return try $0.decode(column: "k", as: UUID.self).uuidString
                    })
            }
            #expect(try await ids("signature_challenges", "id") == Set(youngChallenges.map(\.uuidString)))
            #expect(try await ids("verifications", "id") == [youngVerification.uuidString])
            #expect(try await ids("verification_tokens", "token_hash") == [youngProof, countedProof])
            let spent = try await PolicyLedger().spent(
                user: user, action: "withdrawal", unit: "USDT", now: now, on: db)
            #expect(spent == PolicyAmount("100"), "the proof redeemed 23 hours ago still counts")
        }
    }

    @Test(
        "29 §3 a round deletes at most one batch per table, so a first round on a large database holds the write lock briefly; the next round takes the rest",
        arguments: TestDatabase.all)
    func test_29_3_oneBatchPerRound(database: TestDatabase) async throws {
        // Without the background round every minute, which under a loaded full run (the insert took minutes
        // on PostgreSQL) deleted the last 5 between the test's own rounds.
        try await withServer(database, adjust: { $0.runsBackgroundTasks = false }) { server in
            let db = server.app.db
            let now = server.clock.now.timeIntervalSince1970
            try await db.tracedTransaction { database in
                for _ in 0..<(ExpiredVerificationRows.batch + 5) {
                    try await database.sql.raw(
                        """
                        INSERT INTO signature_challenges (id, challenge, expires_at)
                        VALUES (\(bind: UUID()), \(bind: "c"), \(bind: now - 7_200))
                        """
                    ).run()
                }
            }
            #expect(try await ExpiredVerificationRows.prune(now: now, on: db) == ExpiredVerificationRows.batch)
            #expect(try await ExpiredVerificationRows.prune(now: now, on: db) == 5)
            #expect(try await ExpiredVerificationRows.prune(now: now, on: db) == 0)
        }
    }
}
