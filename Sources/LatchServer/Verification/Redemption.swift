import FluentKit
import Foundation
import LatchCore

/// Redeeming a verification token (D3, issue 30, issue 44 §2): one service with two entry points, the
/// signed-in caller (`redeem(_:action:parameters:by:on:)`) and a backend holding a service key
/// (`redeemAsService`). Either uses the token exactly once for its action and parameters under the
/// policy (`VerificationTokens.redeem`) and records `verification_redeemed` on the token owner's log.
struct Redemption: Sendable {
    let latch: LatchServices

    /// Redeems `token` for the signed-in `caller`, this `action` and these `parameters`, on `database`
    /// (the change's transaction, when the caller has one).
    func redeem(
        _ token: String, action: VerificationAction, parameters: [String: String], by caller: Caller,
        on database: any Database
    ) async throws -> RedeemedVerification {
        try await redeem(
            token, action: action, parameters: parameters, user: caller.user, session: caller.session, ip: caller.ip,
            on: database)
    }

    /// Redeems `token` for a backend holding a service key (`LATCH_SERVICE_KEYS`): any user's proof, for
    /// this `action` and these `parameters`, exactly once; the answer's `user_id` says whose it was.
    func redeemAsService(
        _ token: String, action: VerificationAction, parameters: [String: String], ip: String?,
        on database: any Database
    ) async throws -> RedeemedVerification {
        try await redeem(token, action: action, parameters: parameters, user: nil, session: nil, ip: ip, on: database)
    }

    /// A refusal by the daily limit is recorded as `verification_limit_reached`, one by a tier the day's
    /// sum reached since the proof was made (issue 41 P2) as `verification_policy_applied`, for the
    /// token's owner before it is answered.
    private func redeem(
        _ token: String, action verificationAction: VerificationAction, parameters: [String: String], user: UUID?,
        session: UUID?, ip: String?, on database: any Database
    ) async throws -> RedeemedVerification {
        let now = latch.clock.epochSeconds
        let action = verificationAction.rawValue
        let redeemed: RedeemedVerification
        do {
            redeemed = try await latch.verificationTokens.redeem(
                token, user: user, action: verificationAction, parameters: parameters, now: now, holds: latch.holds,
                policy: latch.config.verificationPolicy, on: database)
        } catch let error as LatchError where error.code == .policyLimit || error.code == .verificationRequired {
            let owner = try await latch.verificationTokens.owner(of: token, on: database)
            let (kind, detail): (SecurityEventKind, String) =
                error.code == .policyLimit
                ? (.verificationLimitReached, "\(action) \(error.unit ?? "") at redemption")
                : (.verificationPolicyApplied, "\(action) tier by the day's sum at redemption")
            try await latch.events.record(
                kind, user: owner, session: session, ip: ip, now: now, detail: detail, on: database)
            throw error
        }
        try await latch.events.record(
            .verificationRedeemed, user: user ?? UUID(uuidString: redeemed.userId), session: session, ip: ip, now: now,
            facts: redeemed.outboundFacts(parameters: parameters), on: database)
        return redeemed
    }
}
