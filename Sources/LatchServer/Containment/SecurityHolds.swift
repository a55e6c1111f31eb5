import FluentKit
import Foundation
import LatchCore

/// Security holds (issue 19 §2): after a security change (a password reset or change, 2FA turned off
/// or reset, the fund password changed or reset, a passkey or device key added, an email or phone added
/// or changed, an identity linked, an unfreeze) the actions of `LATCH_HOLD_ACTIONS` are paused for
/// `LATCH_SECURITY_HOLD_HOURS`: `POST /v1/verifications` for one answers 403 SECURITY_HOLD before any
/// method is offered, and a token for one is not redeemed. Other actions are not affected.
///
/// A user has at most one running hold (one row, keyed by the user): starting one while it runs
/// extends it to the later end, with the later change's reason — one conditional upsert, so concurrent
/// starts leave one row with the latest end. Which changes start one is `SecurityChange`'s to say
/// (additions by the session that registered an account younger than the hold start none: `SecurityChanges`).
///
/// A hold that ran out is ended (its row deleted, `security_hold_ended` recorded at its end) the next
/// time it is read, or when an operator lifts it (`lift`, actor `operator`).
struct SecurityHolds: Sendable {
    static let schema = "security_holds"

    /// `LATCH_SECURITY_HOLD_HOURS` (0: no holds).
    let hours: Int
    /// `LATCH_HOLD_ACTIONS` and the policy's actions that name an amount (`LatchConfig.heldActions`).
    let actions: [String]
    let events: SecurityEventLog
    let accounts: AccountStore
    /// The holds' rows (`security_holds`).
    let store = SecurityHoldStore()

    /// The hold's length in seconds.
    var length: Double { Double(hours) * 3600 }

    /// Whether a running hold pauses `action`.
    func pauses(_ action: String) -> Bool { hours > 0 && actions.contains(action) }

    /// A running hold.
    struct Running: Sendable, Equatable {
        let reason: String
        let startedAt: Double
        let holdUntil: Double
    }

    /// Starts (or extends) the hold of `user` because of `reason`, and records `security_hold_started`
    /// (detail: the reason). Returns its end; nil when holds are off.
    @discardableResult
    func start(
        _ reason: SecurityHoldReason, user: UUID, session: UUID? = nil, ip: String?, now: Double,
        on database: any Database
    ) async throws -> Double? {
        guard hours > 0 else { return nil }
        try await endExpired(of: user, now: now, on: database)
        let until = now + length
        try await store.start(reason, user: user, now: now, until: until, on: database)
        try await events.record(
            .securityHoldStarted, user: user, session: session, ip: ip, now: now, detail: reason.rawValue,
            facts: ["until": .int(Int(until.rounded(.up))), "actions": .strings(actions)], on: database)
        // Nothing the phone approved before the change lets anyone in after it (issue 43).
        try await PendingApprovals.end(of: user, now: now, on: database)
        return until
    }

    /// The running hold of `user`, if any (one that ran out is ended here).
    func running(of user: UUID, now: Double, on database: any Database) async throws -> Running? {
        guard let hold = try await store.find(of: user, on: database) else { return nil }
        guard hold.holdUntil > now else {
            try await endExpired(of: user, now: now, on: database)
            return nil
        }
        return hold
    }

    /// Throws 403 SECURITY_HOLD when `action` is paused by a running hold of `user`.
    func check(_ action: String, of user: UUID, now: Double, on database: any Database) async throws {
        guard pauses(action), let hold = try await running(of: user, now: now, on: database) else { return }
        throw refusal(hold, action: action)
    }

    /// 403 SECURITY_HOLD with `hold_until`, `reason` and `action`.
    func refusal(_ hold: Running, action: String) -> LatchError {
        var error = LatchError(.securityHold)
        error.holdUntil = Date(timeIntervalSince1970: hold.holdUntil)
        error.reason = hold.reason
        error.action = action
        return error
    }

    /// The hold as `GET /v1/me/security` and the admin API show it.
    func info(_ hold: Running) -> SecurityHoldInfo {
        SecurityHoldInfo(
            actions: actions, reason: hold.reason, startedAt: Date(timeIntervalSince1970: hold.startedAt),
            holdUntil: Date(timeIntervalSince1970: hold.holdUntil))
    }

    /// Ends the running hold of `user` (an operator's decision, `actor`), recording `security_hold_ended`;
    /// false when none was running.
    @discardableResult
    func lift(of user: UUID, actor: String, ip: String?, now: Double, on database: any Database) async throws -> Bool {
        // The account row first, as a freeze or reset takes it: the lift writes the hold, then the row, and
        // would deadlock (PostgreSQL) with a freeze holding the row and waiting for the hold.
        try await database.lockUserRow(user)
        try await endExpired(of: user, now: now, on: database)
        guard let reason = try await store.delete(of: user, on: database) else { return false }
        if actor == AccountFreezing.Actor.operator.rawValue {
            // What `FactorSeasoning` reads: factors added before an operator's lift may answer held actions.
            try await accounts.recordHoldLifted(of: user, now: now, on: database)
        }
        try await events.record(
            .securityHoldEnded, user: user, ip: ip, now: now, actor: actor, detail: reason, on: database)
        return true
    }

    /// Deletes a hold of `user` that ran out and records its end (once: only the delete that finds the row does).
    private func endExpired(of user: UUID, now: Double, on database: any Database) async throws {
        guard let ended = try await store.deleteEnded(of: user, now: now, on: database) else { return }
        try await events.record(
            .securityHoldEnded, user: user, ip: nil, now: ended.holdUntil, detail: ended.reason, on: database)
    }
}

extension LatchServices {
    /// The security holds of `config` (issue 19 §2).
    var holds: SecurityHolds {
        SecurityHolds(hours: config.securityHoldHours, actions: config.heldActions, events: events, accounts: accounts)
    }
}
