import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The new-value lock (issue 30 §1, `new_value_lock`): the values of a parameter (e.g. a withdrawal
/// address) each user has used for an action, stored as SHA-256, and until when each is locked.
struct PolicyValueLocks: Sendable {
    static let schema = "policy_value_locks"
    /// The locks' rows.
    let store = PolicyValueLockStore()

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
        if let until = try await store.insertIfNew(
            valueHash: hash, parameter: parameter, action: action, user: user, session: session, now: now,
            lockedUntil: now + seconds, on: database)
        {
            return .started(until: until)
        }
        let until =
            try await store.lockedUntil(valueHash: hash, parameter: parameter, action: action, user: user, on: database)
            ?? 0
        return until > now ? .running(until: until) : .unlocked
    }

    /// Trusts `value` of `parameter` for `user`'s `action` (issue 41 P3): a proof naming it was redeemed
    /// after its lock, passed by `session`. Only the first such redemption sets it; a value still locked or
    /// never seen is left as it is.
    func trust(
        _ value: String, parameter: String, action: String, user: UUID, session: UUID?, now: Double,
        on database: any Database
    ) async throws {
        try await store.trust(
            valueHash: SecretBox.hash(value), parameter: parameter, action: action, user: user, session: session,
            now: now, on: database)
    }

    /// What the security reset ends of `user`'s values (issue 41 P3), `ended` being the sessions it ends:
    /// every value not yet trusted (a lock running or run out unused), except one whose lock `kept` (the
    /// session a reset of the other devices keeps) started; and every trust a session in `ended` started.
    /// So a thief's planted address neither comes due nor stays trusted after the owner's recovery.
    static func discard(of user: UUID, ended: [UUID], kept: UUID?, on sql: any SQLDatabase) async throws {
        try await PolicyValueLockStore().discard(of: user, ended: ended, kept: kept, on: sql)
    }
}
