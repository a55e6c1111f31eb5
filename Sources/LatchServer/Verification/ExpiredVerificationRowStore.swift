import FluentKit
import SQLKit

/// The one statement `ExpiredVerificationRows` runs on each table it prunes (issue 44 §1): a batch of the
/// rows that expired before a time, deleted.
struct ExpiredVerificationRowStore: Sendable {
    /// Deletes at most `limit` rows of `table` (keyed by `key`) whose `expires_at` is at or before `before`;
    /// answers how many. `table` and `key` are the pruner's own constants, never input.
    func deleteExpired(
        from table: String, key: String, before: Double, limit: Int, on database: any Database
    ) async throws -> Int {
        try await database.sql.raw(
            """
            DELETE FROM \(unsafeRaw: table) WHERE \(unsafeRaw: key) IN (
              SELECT \(unsafeRaw: key) FROM \(unsafeRaw: table) WHERE expires_at <= \(bind: before)
              LIMIT \(unsafeRaw: String(limit)))
            RETURNING \(unsafeRaw: key)
            """
        ).all().count
    }
}
