import Foundation

/// Issue 28 §2: "a factor offered for a held action must be older than the hold". The hold pauses a held
/// action after a factor is added; this is the second line, which holds by construction: a factor whose
/// addition started no hold (a route that forgot to declare its change) still cannot answer an action of
/// `LATCH_HOLD_ACTIONS` until it is as old as the hold. Two exceptions, the same as the hold's own:
/// - the new user setting up: a factor added with the account, or by the session that registered it,
///   while the account was younger than the hold;
/// - an operator's decision: a factor added before an operator last lifted the user's hold.
struct FactorSeasoning: Sendable, Equatable {
    /// When a factor was added (or last replaced) and by which session (nil: with the account, or before
    /// sessions were recorded).
    struct Provenance: Sendable, Equatable {
        let addedAt: Double
        let session: UUID?
    }

    /// `LATCH_SECURITY_HOLD_HOURS` in seconds.
    let holdLength: Double
    let now: Double
    /// The account's `created_at` and `registering_session_id`.
    let accountCreatedAt: Double
    let registeringSession: UUID?
    /// When an operator last lifted the user's hold, if ever.
    let liftedAt: Double?

    /// Whether a factor of `provenance` may answer a held action now.
    func mayAnswerHeldAction(_ provenance: Provenance) -> Bool {
        if provenance.addedAt <= now - holdLength { return true }
        if let liftedAt, provenance.addedAt <= liftedAt { return true }
        let settingUp = provenance.addedAt - accountCreatedAt < holdLength
        return settingUp && (provenance.session == nil || provenance.session == registeringSession)
    }
}
