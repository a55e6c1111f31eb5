import Foundation
import LatchCore

extension FactorSeasoning {
    /// The seasoning that judges `factors` for `action`, or nil when no hold can pause `action` (holds
    /// off, or an action `LATCH_HOLD_ACTIONS` does not list): then every factor may answer.
    static func forHeldAction(_ action: String, of factors: AccountFactors, holds: SecurityHolds, now: Double)
        -> FactorSeasoning?
    {
        guard holds.pauses(action) else { return nil }
        return FactorSeasoning(
            holdLength: holds.length, now: now, accountCreatedAt: factors.createdAt,
            registeringSession: factors.registeringSession, liftedAt: factors.holdLiftedAt)
    }

    /// Whether the user's factor of `kind` (one row) may answer: true without such a factor (its own check
    /// refuses it then), and for device keys and passkeys, which are judged one by one.
    func admits(_ kind: VerificationMethodKind, of factors: AccountFactors) -> Bool {
        guard let provenance = factors.provenance(of: kind) else { return true }
        return mayAnswerHeldAction(provenance)
    }
}

extension DeviceCredential {
    /// When and by which session the key was bound (issue 28 §2).
    var provenance: FactorSeasoning.Provenance { .init(addedAt: createdAt, session: sessionID) }
}

extension Passkey {
    /// When and by which session the passkey was added (issue 28 §2).
    var provenance: FactorSeasoning.Provenance { .init(addedAt: createdAt, session: sessionID) }
}
