import FluentKit
import Foundation
import SQLKit

/// The statements on `policy_value_locks` (issue 44 §1): a value's row recorded on first sight, its lock
/// read, its trust set, and the values the security reset ends. What a lock's state means for a
/// verification is `PolicyValueLocks`'.
struct PolicyValueLockStore: Sendable {
    /// Inserts the row of `valueHash` locked until `lockedUntil` unless it exists (one statement, so
    /// concurrent first requests insert it once); the inserted row's `locked_until`, nil when it existed.
    func insertIfNew(
        valueHash hash: String, parameter: String, action: String, user: UUID, session: UUID?, now: Double,
        lockedUntil: Double, on database: any Database
    ) async throws -> Double? {
        let inserted = try await database.sql.raw(
            """
            INSERT INTO policy_value_locks
              (user_id, action, parameter, value_hash, created_at, locked_until, session_id)
            VALUES (\(bind: user), \(bind: action), \(bind: parameter), \(bind: hash), \(bind: now),
              \(bind: lockedUntil), \(bind: session))
            ON CONFLICT (user_id, action, parameter, value_hash) DO NOTHING
            RETURNING locked_until
            """
        ).first()
        return try inserted?.decode(column: "locked_until", as: Double.self)
    }

    /// Until when the lock of `valueHash` runs, nil when there is no such row.
    func lockedUntil(
        valueHash hash: String, parameter: String, action: String, user: UUID, on database: any Database
    ) async throws -> Double? {
        let row = try await database.sql.raw(
            """
            SELECT locked_until FROM policy_value_locks WHERE user_id = \(bind: user) AND action = \(bind: action)
              AND parameter = \(bind: parameter) AND value_hash = \(bind: hash)
            """
        ).first()
        return try row?.decode(column: "locked_until", as: Double.self)
    }

    /// Marks the row of `valueHash` trusted at `now` by `session`, only if it is not trusted yet and its
    /// lock has run out.
    func trust(
        valueHash hash: String, parameter: String, action: String, user: UUID, session: UUID?, now: Double,
        on database: any Database
    ) async throws {
        try await database.sql.raw(
            """
            UPDATE policy_value_locks SET trusted_at = \(bind: now), trusted_session_id = \(bind: session)
            WHERE user_id = \(bind: user) AND action = \(bind: action) AND parameter = \(bind: parameter)
              AND value_hash = \(bind: hash) AND trusted_at IS NULL AND locked_until <= \(bind: now)
            """
        ).run()
    }

    /// Deletes `user`'s untrusted rows except those whose lock `kept` started, and the rows whose trust a
    /// session in `ended` started.
    func discard(of user: UUID, ended: [UUID], kept: UUID?, on sql: any SQLDatabase) async throws {
        let untrusted: SQLQueryString =
            if let kept {
                "(trusted_at IS NULL AND (session_id IS NULL OR session_id <> \(bind: kept)))"
            } else {
                "trusted_at IS NULL"
            }
        let endedTrust: SQLQueryString =
            ended.isEmpty ? "" : " OR trusted_session_id IN (\(binds: ended))"
        try await sql.raw(
            "DELETE FROM policy_value_locks WHERE user_id = \(bind: user) AND (\(untrusted)\(endedTrust))"
        )
        .run()
    }
}
