import Foundation
import LatchCore

/// What a verification needs under the policy (issue 30 §1), decided from its action and parameters.
struct PolicyRequirement: Equatable, Sendable {
    /// How many different kinds must pass.
    var factors: Int
    /// The kinds that may count.
    var kinds: Set<VerificationMethodKind>
    /// The amount and its unit (in its normal form, `PolicyUnit`), when the action names them.
    var amount: (value: PolicyAmount, unit: String)?
    /// The tier that applies (its threshold for the unit), if any.
    var tier: (index: Int, threshold: PolicyAmount)?
    /// Whether the tier applies only because of what the user already redeemed in 24 hours (issue 41 P2):
    /// the amount alone is at or below its threshold.
    var bySum = false

    /// Whether proofs by `methods` meet this requirement: `factors` different kinds, each one that counts.
    func isMet(by methods: [VerificationMethodKind]) -> Bool { Set(methods).intersection(kinds).count >= factors }

    static func == (lhs: PolicyRequirement, rhs: PolicyRequirement) -> Bool {
        lhs.factors == rhs.factors && lhs.kinds == rhs.kinds && lhs.amount?.value == rhs.amount?.value
            && lhs.amount?.unit == rhs.amount?.unit && lhs.tier?.index == rhs.tier?.index
            && lhs.tier?.threshold == rhs.tier?.threshold && lhs.bySum == rhs.bySum
    }
}

extension VerificationPolicy {
    /// The amount and unit of a verification of `action` with `parameters`, the unit in its normal form
    /// (nil when the action names no amount). 422 (`VALIDATION_FAILED`, the parameter as `field`) when the
    /// amount or unit is missing, the amount is not a decimal string (`not_a_decimal`), the unit is not a
    /// unit (`not_a_unit`), or (issue 41 P1) the unit is one the action's tiers and daily limit do not
    /// name while they name others and the file's `other_units` is `refuse` (`unknown_unit`).
    func amount(of action: VerificationAction, parameters: [String: String]) throws -> (
        value: PolicyAmount, unit: String
    )? {
        let policy = policy(of: action)
        guard let names = policy.amount else { return nil }
        guard let raw = parameters[names.parameter] else { throw LatchError.invalid(names.parameter, ["missing"]) }
        guard let amount = PolicyAmount(raw) else { throw LatchError.invalid(names.parameter, ["not_a_decimal"]) }
        guard let text = parameters[names.unit], !text.isEmpty else {
            throw LatchError.invalid(names.unit, ["missing"])
        }
        guard let unit = PolicyUnit.normal(text) else { throw LatchError.invalid(names.unit, ["not_a_unit"]) }
        let named = policy.namedUnits
        if !named.isEmpty, !named.contains(unit), policy.otherUnits == .refuse {
            throw LatchError.invalid(names.unit, ["unknown_unit"])
        }
        return (amount, unit)
    }

    /// What a verification of `action` with `parameters` needs, when the user already redeemed `spent` of
    /// its unit for the action in the last 24 hours (`PolicyLedger`). Throws as `amount(of:parameters:)`.
    func requirement(for action: VerificationAction, parameters: [String: String], spent: PolicyAmount = .zero) throws
        -> PolicyRequirement
    {
        requirement(for: action, amount: try amount(of: action, parameters: parameters), spent: spent)
    }

    /// What a verification of `action` for `amount` (its unit in normal form) needs after `spent`.
    ///
    /// The highest tier whose threshold for the unit `spent + amount` exceeds (strictly) wins (issue 41 P2:
    /// ten withdrawals of 0.5 BTC in a day are judged as the 5 BTC they add up to, so the one that takes the
    /// sum over a threshold needs that tier's factors). A unit no tier or limit names takes the action's
    /// own factors, or the strictest tier's under `other_units: strictest`.
    func requirement(
        for action: VerificationAction, amount: (value: PolicyAmount, unit: String)?, spent: PolicyAmount = .zero
    )
        -> PolicyRequirement
    {
        let policy = policy(of: action)
        var requirement = PolicyRequirement(factors: policy.factors, kinds: policy.kinds)
        guard let amount else { return requirement }
        requirement.amount = amount
        let total = spent + amount.value
        var best: (index: Int, threshold: PolicyAmount)?
        for (index, tier) in policy.tiers.enumerated() {
            guard let threshold = tier.above[amount.unit], total > threshold else { continue }
            if best == nil || threshold >= best!.threshold { best = (index, threshold) }
        }
        if let best {
            let tier = policy.tiers[best.index]
            requirement.factors = tier.factors
            requirement.kinds = tier.kinds ?? policy.kinds
            requirement.tier = best
            requirement.bySum = !(amount.value > best.threshold)
        } else if policy.otherUnits == .strictest, !policy.namedUnits.contains(amount.unit),
            let strictest = policy.tiers.indices.max(by: { policy.tiers[$0].factors <= policy.tiers[$1].factors })
        {
            // The tier with the most factors; of equal ones the file's last, usually its highest.
            requirement.factors = policy.tiers[strictest].factors
            requirement.kinds = policy.tiers[strictest].kinds ?? policy.kinds
        }
        return requirement
    }
}
