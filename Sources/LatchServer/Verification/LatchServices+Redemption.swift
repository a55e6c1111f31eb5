import FluentKit
import Foundation
import LatchCore

extension LatchServices {
    /// Redeems a verification token under the policy (issue 30): a refusal by the daily limit is
    /// recorded as `verification_limit_reached` for the token's owner before it is answered.
    func redeemVerification(
        _ token: String, user: UUID?, action: String, digest: String, session: UUID?, ip: String?,
        on database: any Database
    ) async throws -> RedeemedVerification {
        let now = clock.epochSeconds
        do {
            return try await verificationTokens.redeem(
                token, user: user, action: action, digest: digest, now: now, holds: holds,
                policy: config.verificationPolicy, on: database)
        } catch let error as LatchError where error.code == .policyLimit {
            let owner = try await VerificationToken.find(SecretBox.hash(token), on: database)?.userID
            try await events.record(
                .verificationLimitReached, user: owner, session: session, ip: ip, now: now,
                detail: "\(action) \(error.unit ?? "") at redemption", on: database)
            throw error
        }
    }
}
