import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The daily limit's sums (issue 30 §1): what one user's *redeemed* verifications of an action added up
/// to, per unit, in the last 24 hours. Amounts are summed as exact decimals here, never in SQL.
struct PolicyLedger: Sendable {
    /// The rolling window of `daily_limit`.
    static let window: Double = 86_400

    /// The sum of `user`'s redeemed verifications of `action` in `unit` since `now - window`.
    func spent(user: UUID, action: String, unit: String, now: Double, on database: any Database) async throws
        -> PolicyAmount
    {
        let rows = try await database.sql.raw(
            """
            SELECT amount FROM verification_tokens
            WHERE user_id = \(bind: user) AND action = \(bind: action) AND redeemed_at > \(bind: now - Self.window)
              AND unit = \(bind: unit) AND amount IS NOT NULL
            """
        ).all()
        var total = PolicyAmount.zero
        for row in rows {
            guard let amount = PolicyAmount(try row.decode(column: "amount", as: String.self)) else { continue }
            total = total + amount
        }
        return total
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
