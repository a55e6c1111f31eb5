import FluentKit
import Foundation
import LatchCore

/// Step-up for the signed-in caller, without HTTP (issue 29 §1): a verification token redeemed once, or
/// a sign-in within the last 10 minutes. Held actions (`LATCH_HOLD_ACTIONS`) are refused on either path.
struct StepUp: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database

    /// How recent a sign-in lets a change through without a proof.
    static let recentSignIn: Double = 600

    /// Lets a change through when the session signed in within the last 10 minutes, or when `proof` is a
    /// verification token for `action` (and `parameters`, empty unless the operation names its target);
    /// else VERIFICATION_REQUIRED.
    func requireRecentSignIn(
        orProof proof: String?, action verificationAction: VerificationAction, parameters: [String: String] = [:]
    ) async throws {
        let action = verificationAction.rawValue
        if let proof {
            _ = try await Redemption(latch: latch).redeem(
                proof, action: verificationAction, parameters: parameters, by: caller, on: db)
            return
        }
        // An action of `LATCH_HOLD_ACTIONS` is held on this path too (issue 28 §2): a thief's fresh
        // session is exactly a recent sign-in.
        try await latch.holds.check(action, of: caller.user, now: latch.clock.epochSeconds, on: db)
        guard try await signedInRecently() else { throw LatchError(.verificationRequired, field: "verification_token") }
    }

    /// Whether the caller's session signed in within the last 10 minutes.
    func signedInRecently() async throws -> Bool {
        guard let session = try await SessionStore().find(caller.session, on: db) else { return false }
        return latch.clock.epochSeconds - session.signedInAt <= Self.recentSignIn
    }
}
