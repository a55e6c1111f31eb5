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

    /// Redeems `token` for the caller, this `action` and these `parameters`, exactly once, on `database`
    /// (the change's transaction, when given).
    func redeem(_ token: String, action: String, parameters: [String: String], on database: (any Database)? = nil)
        async throws -> RedeemedVerification
    {
        let now = latch.clock.epochSeconds
        let database = database ?? db
        let redeemed = try await latch.redeemVerification(
            token, user: caller.user, action: action, parameters: parameters, session: caller.session,
            ip: caller.ip, on: database)
        try await latch.events.record(
            .verificationRedeemed, user: caller.user, session: caller.session, ip: caller.ip, now: now,
            facts: redeemed.outboundFacts(parameters: parameters), on: database)
        return redeemed
    }

    /// Lets a change through when the session signed in within the last 10 minutes, or when `proof` is a
    /// verification token for `action` (and `parameters`, empty unless the operation names its target);
    /// else VERIFICATION_REQUIRED.
    func requireRecentSignIn(
        orProof proof: String?, action verificationAction: VerificationAction, parameters: [String: String] = [:]
    ) async throws {
        let action = verificationAction.rawValue
        if let proof {
            _ = try await redeem(proof, action: action, parameters: parameters)
            return
        }
        // An action of `LATCH_HOLD_ACTIONS` is held on this path too (issue 28 §2): a thief's fresh
        // session is exactly a recent sign-in.
        try await latch.holds.check(action, of: caller.user, now: latch.clock.epochSeconds, on: db)
        guard try await signedInRecently() else { throw LatchError(.verificationRequired, field: "verification_token") }
    }

    /// Whether the caller's session signed in within the last 10 minutes.
    func signedInRecently() async throws -> Bool {
        guard let session = try await Session.find(caller.session, on: db) else { return false }
        return latch.clock.epochSeconds - session.signedInAt <= Self.recentSignIn
    }
}
