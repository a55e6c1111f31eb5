import FluentKit
import Logging

/// Deletes what verifications leave behind once nothing can use it: every verification writes a
/// `verifications` row, a device-key challenge and, when it passes, a proof, and before this only a security
/// reset or an account deletion removed them, so the tables grew by a row per verification for ever.
/// A row is kept a while after it expires, so every answer about it stays what it was:
/// - a challenge (120 s) an hour after it expired;
/// - a verification (5 min) a day after it expired (an attempt at it answers "no attempts left", not 404);
/// - a proof (5 min) two days after it expired: a redeemed proof counts towards the daily limit
///   (`PolicyLedger.window`, 24 h) after its redemption, which came before its expiry;
/// - a push approval (issue 43 §2) with its verification, a day after it expired;
/// - a phone approval of a sign-in (120 s, issue 43) an hour after it expired (a late poll still hears
///   `expired_token`).
enum ExpiredVerificationRows {
    static let interval: Duration = .seconds(60)
    /// How long after expiry each table keeps a row, in seconds.
    static let kept: [(table: String, key: String, seconds: Double)] = [
        ("signature_challenges", "id", 3_600),
        ("verifications", "id", 86_400),
        ("push_approvals", "id", 86_400),
        ("verification_tokens", "token_hash", 2 * PolicyLedger.window),
        ("approvals", "id", 3_600)
    ]
    /// At most this many rows per table and round, so a first round on a large database holds SQLite's
    /// write lock only briefly; the next round takes the next batch.
    static let batch = 2_000

    /// Deletes one batch of each table's rows expired longer ago than it keeps them; answers how many.
    @discardableResult
    static func prune(now: Double, on database: any Database) async throws -> Int {
        var deleted = 0
        for (table, key, seconds) in kept {
            deleted += try await ExpiredVerificationRowStore().deleteExpired(
                from: table, key: key, before: now - seconds, limit: batch, on: database)
        }
        return deleted
    }

    /// Runs `prune` every minute while latchd serves (on every instance that runs background tasks).
    static func task(services latch: LatchServices, database: @escaping @Sendable () -> any Database, logger: Logger)
        -> PeriodicTask
    {
        PeriodicTask(every: interval, name: "expired verification rows", logger: logger) {
            try await prune(now: latch.clock.epochSeconds, on: database())
        }
    }
}
