import Foundation
import LatchCore

/// The verification policy latchd runs, as operators see it (`GET /v1/admin/policy`, `latchd admin
/// policy`, issue 30 §1): the file it was read from and every action in the file's own shape, with each
/// default filled in, so what is enforced is never a guess.
public struct PolicyView: Codable, Sendable, Equatable {
    /// The `LATCH_POLICY_FILE` read at start (null: none; every action then takes `default`).
    public var file: String?
    /// Every action the file names, and `default` (for any other action).
    public var actions: [String: ActionView]

    /// One action's rules, defaults filled in.
    public struct ActionView: Codable, Sendable, Equatable {
        public var factors: Int
        public var kinds: [String]
        public var amount: AmountView?
        public var tiers: [TierView]
        public var dailyLimit: [String: String]
        /// What a unit no tier or limit names gets (`refuse`, `strictest`, `base`); nil without an amount.
        public var otherUnits: String?
        public var newValueLock: LockView?

        enum CodingKeys: String, CodingKey {
            case factors, kinds, amount, tiers
            case dailyLimit = "daily_limit"
            case otherUnits = "other_units"
            case newValueLock = "new_value_lock"
        }
    }

    /// The parameters carrying the amount and its unit.
    public struct AmountView: Codable, Sendable, Equatable {
        public var parameter: String
        public var unit: String
    }

    /// A tier: above these thresholds, these factors and kinds.
    public struct TierView: Codable, Sendable, Equatable {
        public var above: [String: String]
        public var factors: Int
        public var kinds: [String]
    }

    /// A new-value lock: the parameter and the lock's duration (`24h`, `30m`, `90s`).
    public struct LockView: Codable, Sendable, Equatable {
        public var parameter: String
        public var duration: String
    }
}

extension VerificationPolicy {
    /// This policy as operators see it, read from `file`.
    func view(file: String?) -> PolicyView {
        var actions = self.actions.mapValues(Self.view)
        actions["default"] = Self.view(fallback)
        return PolicyView(file: file, actions: actions)
    }

    private static func view(_ policy: ActionPolicy) -> PolicyView.ActionView {
        PolicyView.ActionView(
            factors: policy.factors, kinds: names(policy.kinds),
            amount: policy.amount.map { PolicyView.AmountView(parameter: $0.parameter, unit: $0.unit) },
            tiers: policy.tiers.map {
                PolicyView.TierView(
                    above: $0.above.mapValues(\.description), factors: $0.factors,
                    kinds: names($0.kinds ?? policy.kinds))
            },
            dailyLimit: policy.dailyLimit.mapValues(\.description),
            otherUnits: policy.amount == nil ? nil : policy.otherUnits.rawValue,
            newValueLock: policy.newValueLock.map {
                PolicyView.LockView(parameter: $0.parameter, duration: duration($0.seconds))
            })
    }

    private static func names(_ kinds: Set<VerificationMethodKind>) -> [String] {
        VerificationMethodKind.allCases.filter(kinds.contains).map(\.rawValue)
    }

    /// Seconds as the file writes them: whole hours as `h`, whole minutes as `m`, else `s`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds)
        if whole % 3600 == 0 { return "\(whole / 3600)h" }
        if whole % 60 == 0 { return "\(whole / 60)m" }
        return "\(whole)s"
    }
}
