import FluentKit
import Foundation
import LatchCore

/// The daily limit's sums (issue 30 §1): what one user's *redeemed* verifications of an action added up
/// to, per unit, in the last 24 hours. Amounts are summed as exact decimals here, never in SQL.
struct PolicyLedger: Sendable {
    /// The rolling window of `daily_limit`.
    static let window: Double = 86_400

    /// The sum of `user`'s redeemed verifications of `action` in `unit` since `now - window`.
    func spent(user: UUID, action: VerificationAction, unit: String, now: Double, on database: any Database)
        async throws -> PolicyAmount
    {
        let amounts = try await VerificationTokenStore().redeemedAmounts(
            of: user, action: action, unit: unit, since: now - Self.window, on: database)
        return amounts.compactMap { PolicyAmount($0) }.reduce(PolicyAmount.zero, +)
    }

    /// 403 POLICY_LIMIT with its details.
    static func refusal(unit: String, limit: PolicyAmount, remaining: PolicyAmount) -> LatchError {
        var error = LatchError(.policyLimit)
        error.unit = unit
        error.limit = limit.description
        error.remaining = remaining.description
        return error
    }
}
