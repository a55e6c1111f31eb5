import FluentKit
import Foundation
import LatchCore

extension LatchServices {
    /// Redeems a verification token for `action` and `parameters` under the policy (issue 30): a refusal
    /// by the daily limit is recorded as `verification_limit_reached`, one by a tier the day's sum reached
    /// since the proof was made (issue 41 P2) as `verification_policy_applied`, for the token's owner
    /// before it is answered.
    func redeemVerification(
        _ token: String, user: UUID?, action: String, parameters: [String: String], session: UUID?, ip: String?,
        on database: any Database
    ) async throws -> RedeemedVerification {
        let now = clock.epochSeconds
        do {
            return try await verificationTokens.redeem(
                token, user: user, action: action, parameters: parameters, now: now, holds: holds,
                policy: config.verificationPolicy, on: database)
        } catch let error as LatchError where error.code == .policyLimit || error.code == .verificationRequired {
            let owner = try await VerificationToken.find(SecretBox.hash(token), on: database)?.userID
            let (kind, detail): (SecurityEventKind, String) =
                error.code == .policyLimit
                ? (.verificationLimitReached, "\(action) \(error.unit ?? "") at redemption")
                : (.verificationPolicyApplied, "\(action) tier by the day's sum at redemption")
            try await events.record(kind, user: owner, session: session, ip: ip, now: now, detail: detail, on: database)
            throw error
        }
    }
}
