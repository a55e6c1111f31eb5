import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The new-value lock (issue 30 §1, `new_value_lock`): the values of a parameter (e.g. a withdrawal
/// address) each user has used for an action, stored as SHA-256, and until when each is locked.
struct PolicyValueLocks: Sendable {
    static let schema = "policy_value_locks"

    /// What a value's lock says now.
    enum State: Equatable {
        /// Seen before and unlocked: the value verifies as the tiers say.
        case unlocked
        /// Seen for the first time by this call: locked until then (the caller tells the owner).
        case started(until: Double)
        /// Still locked from an earlier request.
        case running(until: Double)
    }

    /// Records `value` of `parameter` for `user`'s `action` on first sight (locked for `seconds`) and
    /// answers its state. Concurrent first requests record it once: one answers `started`, the others
    /// `running`.
    func state(
        of value: String, parameter: String, action: String, user: UUID, seconds: Double, now: Double,
        on database: any Database
    ) async throws -> State {
        let hash = SecretBox.hash(value)
        let inserted = try await database.sql.raw(
            """
            INSERT INTO policy_value_locks (user_id, action, parameter, value_hash, created_at, locked_until)
            VALUES (\(bind: user), \(bind: action), \(bind: parameter), \(bind: hash), \(bind: now), \(bind: now + seconds))
            ON CONFLICT (user_id, action, parameter, value_hash) DO NOTHING
            RETURNING locked_until
            """
        ).first()
        if let inserted { return .started(until: try inserted.decode(column: "locked_until", as: Double.self)) }
        let row = try await database.sql.raw(
            """
            SELECT locked_until FROM policy_value_locks WHERE user_id = \(bind: user) AND action = \(bind: action)
              AND parameter = \(bind: parameter) AND value_hash = \(bind: hash)
            """
        ).first()
        let until = try row?.decode(column: "locked_until", as: Double.self) ?? 0
        return until > now ? .running(until: until) : .unlocked
    }

    /// Forgets the values of `user` still locked (the security reset): a thief's new address does not
    /// outlive the owner's recovery.
    static func discardRunning(of user: UUID, now: Double, on sql: any SQLDatabase) async throws {
        try await sql.raw(
            "DELETE FROM policy_value_locks WHERE user_id = \(bind: user) AND locked_until > \(bind: now)"
        ).run()
    }
}
