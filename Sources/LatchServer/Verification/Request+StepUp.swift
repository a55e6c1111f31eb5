import Fluent
import Foundation
import LatchCore
import Vapor

extension Request {
    /// Redeems a verification token for the signed-in user, this `action` and these `parameters`,
    /// exactly once. Apps that mount LatchServer call it in their own sensitive routes:
    ///
    ///     app.grouped(RequireSignedIn()).post("withdrawals") { req in
    ///         let body = try req.content.decode(Withdrawal.self)
    ///         _ = try await req.redeemVerification(body.verificationToken, action: "withdrawal", parameters: body.parameters)
    ///         return try await performWithdrawal(body)  // reached only with a fresh, matching proof
    ///     }
    public func redeemVerification(
        _ token: String, action: String, parameters: [String: String], on database: (any Database)? = nil
    ) async throws -> RedeemedVerification {
        let me = try signedIn
        let now = latch.clock.epochSeconds
        let database = database ?? db
        let redeemed = try await latch.verificationTokens.redeem(
            token, user: me.userID, action: action, digest: CanonicalParameters.digest(parameters), now: now,
            holds: latch.holds, on: database)
        try await latch.events.record(
            .verificationRedeemed, user: me.userID, session: me.sessionID, ip: clientIP, now: now, on: database)
        return redeemed
    }

    /// Lets a change to a second factor through when the session signed in within the last
    /// 10 minutes, or when `proof` is a verification token for `action` (and `parameters`, empty unless
    /// the operation names its target); else VERIFICATION_REQUIRED.
    func requireRecentSignIn(
        orProof proof: String?, action verificationAction: VerificationAction, parameters: [String: String] = [:]
    ) async throws {
        let action = verificationAction.rawValue
        if let proof {
            _ = try await redeemVerification(proof, action: action, parameters: parameters)
            return
        }
        let me = try signedIn
        // An action of `LATCH_HOLD_ACTIONS` is held on this path too (issue 28 §2): a thief's fresh
        // session is exactly a recent sign-in.
        try await latch.holds.check(action, of: me.userID, now: latch.clock.epochSeconds, on: db)
        guard let session = try await Session.find(me.sessionID, on: db),
            latch.clock.epochSeconds - session.signedInAt <= Self.recentSignIn
        else { throw LatchError(.verificationRequired, field: "verification_token") }
    }

    static let recentSignIn: Double = 600
}
