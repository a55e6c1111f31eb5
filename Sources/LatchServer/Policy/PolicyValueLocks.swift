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

    /// Records `value` of `parameter` for `user`'s `action` on first sight (locked for `seconds`, started
    /// by `session`) and answers its state. Concurrent first requests record it once: one answers
    /// `started`, the others `running`.
    func state(
        of value: String, parameter: String, action: String, user: UUID, session: UUID?, seconds: Double,
        now: Double, on database: any Database
    ) async throws -> State {
        let hash = SecretBox.hash(value)
        let inserted = try await database.sql.raw(
            """
            INSERT INTO policy_value_locks
              (user_id, action, parameter, value_hash, created_at, locked_until, session_id)
            VALUES (\(bind: user), \(bind: action), \(bind: parameter), \(bind: hash), \(bind: now),
              \(bind: now + seconds), \(bind: session))
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

    /// Trusts `value` of `parameter` for `user`'s `action` (issue 41 P3): a proof naming it was redeemed
    /// after its lock, passed by `session`. Only the first such redemption sets it; a value still locked or
    /// never seen is left as it is.
    func trust(
        _ value: String, parameter: String, action: String, user: UUID, session: UUID?, now: Double,
        on database: any Database
    ) async throws {
        try await database.sql.raw(
            """
            UPDATE policy_value_locks SET trusted_at = \(bind: now), trusted_session_id = \(bind: session)
            WHERE user_id = \(bind: user) AND action = \(bind: action) AND parameter = \(bind: parameter)
              AND value_hash = \(bind: SecretBox.hash(value)) AND trusted_at IS NULL AND locked_until <= \(bind: now)
            """
        ).run()
    }

    /// What the security reset ends of `user`'s values (issue 41 P3), `ended` being the sessions it ends:
    /// every value not yet trusted (a lock running or run out unused), except one whose lock `kept` (the
    /// session a reset of the other devices keeps) started; and every trust a session in `ended` started.
    /// So a thief's planted address neither comes due nor stays trusted after the owner's recovery.
    static func discard(of user: UUID, ended: [UUID], kept: UUID?, on sql: any SQLDatabase) async throws {
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
