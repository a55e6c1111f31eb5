import FluentKit
import Foundation
import SQLKit

/// The statements on `apple_revocation_retries` (issue 20 §9, issue 44 §1): a failed revocation's
/// sealed token queued, the due rows read, one claimed for an attempt, and a finished one removed.
/// When to try again and when to give up is `AppleRevocationRetries`'.
struct AppleRevocationRetryStore: Sendable {
    /// A queued retry that is due.
    struct Due: Sendable {
        let id: UUID
        /// The sealed refresh token (never opened here).
        let sealed: String
        let clientID: String
        /// Attempts made so far.
        let attempts: Int
    }

    /// Queues the sealed token for `clientID`, its first retry at `nextAttemptAt`.
    func queue(sealed: String, clientID: String, nextAttemptAt: Double, now: Double, on database: any Database)
        async throws
    {
        try await database.sql.raw(
            """
            INSERT INTO apple_revocation_retries (id, sealed_refresh_token, client_id, attempts, next_attempt_at, created_at)
            VALUES (\(bind: UUID()), \(bind: sealed), \(bind: clientID), 1, \(bind: nextAttemptAt), \(bind: now))
            """
        ).run()
    }

    /// The retries due at `now`, the longest due first, at most 20.
    func due(now: Double, on database: any Database) async throws -> [Due] {
        try await database.sql.raw(
            """
            SELECT id, sealed_refresh_token, client_id, attempts FROM apple_revocation_retries
            WHERE next_attempt_at <= \(bind: now) ORDER BY next_attempt_at LIMIT 20
            """
        ).all().map { row in
            Due(
                id: try row.decode(column: "id", as: UUID.self),
                sealed: try row.decode(column: "sealed_refresh_token", as: String.self),
                clientID: try row.decode(column: "client_id", as: String.self),
                attempts: try row.decode(column: "attempts", as: Int.self))
        }
    }

    /// Claims the retry `id` for one attempt by counting it and moving its next one to `nextAttemptAt`;
    /// false when it is no longer due (another instance claimed it).
    func claim(_ id: UUID, nextAttemptAt: Double, now: Double, on database: any Database) async throws -> Bool {
        let claimed = try await database.sql.raw(
            """
            UPDATE apple_revocation_retries SET attempts = attempts + 1, next_attempt_at = \(bind: nextAttemptAt)
            WHERE id = \(bind: id) AND next_attempt_at <= \(bind: now) RETURNING id
            """
        ).all()
        return !claimed.isEmpty
    }

    /// Removes the retry `id`.
    func remove(_ id: UUID, on database: any Database) async throws {
        try await database.sql.raw("DELETE FROM apple_revocation_retries WHERE id = \(bind: id)").run()
    }
}
