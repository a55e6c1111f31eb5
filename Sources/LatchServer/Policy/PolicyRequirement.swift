import Foundation
import LatchCore

/// What a verification needs under the policy (issue 30 §1), decided from its action and parameters.
struct PolicyRequirement: Equatable, Sendable {
    /// How many different kinds must pass.
    var factors: Int
    /// The kinds that may count.
    var kinds: Set<VerificationMethodKind>
    /// The amount and its unit, when the action names them.
    var amount: (value: PolicyAmount, unit: String)?
    /// The tier that applies (its threshold for the unit), if any.
    var tier: (index: Int, threshold: PolicyAmount)?

    static func == (lhs: PolicyRequirement, rhs: PolicyRequirement) -> Bool {
        lhs.factors == rhs.factors && lhs.kinds == rhs.kinds && lhs.amount?.value == rhs.amount?.value
            && lhs.amount?.unit == rhs.amount?.unit && lhs.tier?.index == rhs.tier?.index
            && lhs.tier?.threshold == rhs.tier?.threshold
    }
}

extension VerificationPolicy {
    /// What a verification of `action` with `parameters` needs. An action that names an amount answers
    /// 422 (`VALIDATION_FAILED`, the parameter as `field`) when its amount or unit is missing or not a
    /// decimal string. The highest tier whose threshold for the unit the amount exceeds (strictly) wins;
    /// a unit no tier names takes the action's own factors.
    func requirement(for action: String, parameters: [String: String]) throws -> PolicyRequirement {
        let policy = policy(of: action)
        var requirement = PolicyRequirement(factors: policy.factors, kinds: policy.kinds)
        guard let names = policy.amount else { return requirement }
        guard let raw = parameters[names.parameter] else { throw LatchError.invalid(names.parameter, ["missing"]) }
        guard let amount = PolicyAmount(raw) else { throw LatchError.invalid(names.parameter, ["not_a_decimal"]) }
        guard let unit = parameters[names.unit], !unit.isEmpty else {
            throw LatchError.invalid(names.unit, ["missing"])
        }
        requirement.amount = (amount, unit)
        var best: (index: Int, threshold: PolicyAmount)?
        for (index, tier) in policy.tiers.enumerated() {
            guard let threshold = tier.above[unit], amount > threshold else { continue }
            if best == nil || threshold >= best!.threshold { best = (index, threshold) }
        }
        if let best {
            let tier = policy.tiers[best.index]
            requirement.factors = tier.factors
            requirement.kinds = tier.kinds ?? policy.kinds
            requirement.tier = best
        }
        return requirement
    }
}
