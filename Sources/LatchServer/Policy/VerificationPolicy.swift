import Foundation
import LatchCore

/// The verification policy an operator writes (issue 30 §1, `LATCH_POLICY_FILE`): per action, how many
/// different kinds of factor must pass and which kinds may count, raised by amount tiers; a rolling daily
/// limit per unit; and a time-lock on a parameter's values never used before. An action the policy does
/// not name takes `fallback` (the file's `default`, itself one factor of any kind).
///
/// A pure value: `requirement(for:parameters:)` decides; the verification service enforces.
struct VerificationPolicy: Equatable, Sendable {
    var actions: [String: ActionPolicy]
    var fallback: ActionPolicy

    /// Without a policy file: one factor of the default kinds, for every action (today's behaviour).
    static let unrestricted = VerificationPolicy(actions: [:], fallback: ActionPolicy())

    /// What one action needs.
    struct ActionPolicy: Equatable, Sendable {
        /// How many different kinds must pass (1 or 2).
        var factors = 1
        /// The kinds that may count (`defaultKinds` unless the file says).
        var kinds = VerificationPolicy.defaultKinds
        /// Where the amount and its unit are found among the verification's parameters.
        var amount: AmountParameters?
        /// Raised requirements above thresholds, in the file's order.
        var tiers: [Tier] = []
        /// Per unit, the most this user may have redeemed for the action in any 24 hours.
        var dailyLimit: [String: PolicyAmount] = [:]
        /// What a unit gets that no tier and no daily limit names (issue 41 P1).
        var otherUnits = OtherUnits.refuse
        var newValueLock: NewValueLock?
        /// Whether a biometric answer counts only from a device key App Attest vouches for, with the app's
        /// assertion (issue 31 §2): a script holding a device key of its own cannot pass it.
        var attestedDevice = false
    }

    /// The kinds that count where the file names none: every kind but the emailed code. A code mailed to
    /// the account's address is what a thief who phished the mailbox has (issue 28), so it counts only
    /// where the operator lists it, as the second factor of a tier usually.
    static let defaultKinds: Set<VerificationMethodKind> = [.biometric, .passkey, .totp, .fundPassword]
}

extension VerificationPolicy {
    /// The parameters naming a verification's amount and its unit (`{"parameter": "amount", "unit": "currency"}`).
    struct AmountParameters: Equatable, Sendable {
        var parameter: String
        var unit: String
    }

    /// Above `above[unit]` (strictly), `factors` and `kinds` (the action's when nil) apply instead.
    struct Tier: Equatable, Sendable {
        var above: [String: PolicyAmount]
        var factors: Int
        var kinds: Set<VerificationMethodKind>?
    }

    /// What a verification in a unit the action's tiers and daily limit never name gets (issue 41 P1,
    /// `other_units`). Where they name no unit at all, every unit takes the action's own rule.
    enum OtherUnits: String, CaseIterable, Equatable, Sendable {
        /// Refused with 422 (`unknown_unit`): a new unit never silently gets the weakest rule. The default.
        case refuse
        /// The strictest tier's factors and kinds, whatever the amount (no daily limit: it has none).
        case strictest
        /// The action's own factors and kinds, as if below every tier: only when the file says so.
        case base
    }

    /// A value of `parameter` this user never redeemed for the action is locked for `seconds`.
    struct NewValueLock: Equatable, Sendable {
        var parameter: String
        var seconds: Double
    }

    /// The policy of `action`.
    func policy(of action: VerificationAction) -> ActionPolicy { actions[action.rawValue] ?? fallback }

    /// Whether any action asks for an attested device (then App Attest must not be off).
    var asksForAttestedDevices: Bool { fallback.attestedDevice || actions.values.contains(where: \.attestedDevice) }
}

extension VerificationPolicy.ActionPolicy {
    /// Whether judging an amount in `unit` needs the user's redeemed 24-hour sum (`PolicyLedger`): for
    /// the tiers (issue 41 P2) or the unit's daily limit.
    func judgesDailySum(in unit: String) -> Bool { !tiers.isEmpty || dailyLimit[unit] != nil }

    /// The units the tiers and the daily limit name, in their normal form (`PolicyUnit`).
    var namedUnits: Set<String> { Set(tiers.flatMap(\.above.keys)).union(dailyLimit.keys) }
}
