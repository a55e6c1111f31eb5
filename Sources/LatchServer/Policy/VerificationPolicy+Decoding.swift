import Foundation
import LatchCore

/// Why a policy file cannot be run: the key at fault (`actions.withdrawal.tiers[0].above.USDT`) and what
/// is wrong with it.
struct PolicyFileError: Error, Equatable, CustomStringConvertible {
    let key: String
    let reason: String

    var description: String { key.isEmpty ? reason : "\(key): \(reason)" }
}

extension VerificationPolicy {
    /// Reads a policy file's JSON (issue 30 §1). Strict: an unknown key, a wrong type, an impossible
    /// requirement (two factors of one allowed kind) or an amount that is not a decimal string is an error
    /// naming its key, so a typo never weakens the guard silently.
    init(json data: Data) throws(PolicyFileError) {
        // A key named twice would be read as one of its values, silently (issue 41 §3's strict JSON).
        switch StrictJSONBody.refusal(of: data) {
        case .duplicateKey(let path): throw PolicyFileError(key: path, reason: "named twice")
        case .notUTF8: throw PolicyFileError(key: "", reason: "not UTF-8")
        case .tooDeep, .malformed: throw PolicyFileError(key: "", reason: "not valid JSON")
        case nil: break
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw PolicyFileError(key: "", reason: "not valid JSON")
        }
        let top = try Self.object(root, at: "")
        try Self.allowOnly(["actions"], in: top, at: "")
        guard let actionsValue = top["actions"] else { throw PolicyFileError(key: "actions", reason: "missing") }
        let actions = try Self.object(actionsValue, at: "actions")
        var policies: [String: ActionPolicy] = [:]
        var fallback = ActionPolicy()
        for (name, value) in actions {
            let key = "actions.\(name)"
            if name == "default" {
                fallback = try Self.actionPolicy(value, at: key)
            } else {
                guard Validate.isActionName(name) else {
                    throw PolicyFileError(key: key, reason: "not an action name (a-z 0-9 _ . -, 1-64 characters)")
                }
                policies[name] = try Self.actionPolicy(value, at: key)
            }
        }
        self.init(actions: policies, fallback: fallback)
    }

    private static func actionPolicy(_ value: Any, at key: String) throws(PolicyFileError) -> ActionPolicy {
        let object = try object(value, at: key)
        try allowOnly(
            [
                "factors", "kinds", "amount", "tiers", "daily_limit", "other_units", "new_value_lock",
                "attested_device"
            ], in: object, at: key)
        var policy = ActionPolicy()
        if let factors = object["factors"] { policy.factors = try factorCount(factors, at: "\(key).factors") }
        if let kinds = object["kinds"] { policy.kinds = try kindSet(kinds, at: "\(key).kinds") }
        try requireEnough(policy.kinds, for: policy.factors, at: key)
        if let amount = object["amount"] {
            let names = try Self.object(amount, at: "\(key).amount")
            try allowOnly(["parameter", "unit"], in: names, at: "\(key).amount")
            policy.amount = AmountParameters(
                parameter: try parameterName(names["parameter"], at: "\(key).amount.parameter"),
                unit: try parameterName(names["unit"], at: "\(key).amount.unit"))
        }
        if let tiers = object["tiers"] {
            guard policy.amount != nil else { throw PolicyFileError(key: "\(key).tiers", reason: "needs amount") }
            guard let list = tiers as? [Any] else {
                throw PolicyFileError(key: "\(key).tiers", reason: "must be a list")
            }
            for (index, value) in list.enumerated() {
                policy.tiers.append(try tier(value, at: "\(key).tiers[\(index)]", action: policy))
            }
        }
        if let limit = object["daily_limit"] {
            guard policy.amount != nil else {
                throw PolicyFileError(key: "\(key).daily_limit", reason: "needs amount")
            }
            policy.dailyLimit = try amounts(limit, at: "\(key).daily_limit")
        }
        if let other = object["other_units"] {
            guard policy.amount != nil else {
                throw PolicyFileError(key: "\(key).other_units", reason: "needs amount")
            }
            let names = VerificationPolicy.OtherUnits.allCases.map(\.rawValue)
            guard let name = other as? String, let rule = VerificationPolicy.OtherUnits(rawValue: name) else {
                throw PolicyFileError(
                    key: "\(key).other_units", reason: "must be one of \(names.joined(separator: ", "))")
            }
            policy.otherUnits = rule
        }
        if let lock = object["new_value_lock"] {
            let lockKey = "\(key).new_value_lock"
            let fields = try Self.object(lock, at: lockKey)
            try allowOnly(["parameter", "duration"], in: fields, at: lockKey)
            policy.newValueLock = NewValueLock(
                parameter: try parameterName(fields["parameter"], at: "\(lockKey).parameter"),
                seconds: try duration(fields["duration"], at: "\(lockKey).duration"))
        }
        if let attested = object["attested_device"] {
            // JSONSerialization reads `true` as an NSNumber of type "c" (a BOOL); the number 1 is not one.
            guard let flag = attested as? NSNumber, String(cString: flag.objCType) == "c" else {
                throw PolicyFileError(key: "\(key).attested_device", reason: "must be true or false")
            }
            policy.attestedDevice = flag.boolValue
        }
        return policy
    }

    private static func tier(_ value: Any, at key: String, action: ActionPolicy) throws(PolicyFileError) -> Tier {
        let object = try object(value, at: key)
        try allowOnly(["above", "factors", "kinds"], in: object, at: key)
        guard let above = object["above"] else { throw PolicyFileError(key: "\(key).above", reason: "missing") }
        let thresholds = try amounts(above, at: "\(key).above")
        guard !thresholds.isEmpty else { throw PolicyFileError(key: "\(key).above", reason: "names no unit") }
        guard let factors = object["factors"] else { throw PolicyFileError(key: "\(key).factors", reason: "missing") }
        let count = try factorCount(factors, at: "\(key).factors")
        let kinds = try object["kinds"].map { (kinds) throws(PolicyFileError) in try kindSet(kinds, at: "\(key).kinds")
        }
        try requireEnough(kinds ?? action.kinds, for: count, at: key)
        return Tier(above: thresholds, factors: count, kinds: kinds)
    }

    private static func object(_ value: Any, at key: String) throws(PolicyFileError) -> [String: Any] {
        guard let object = value as? [String: Any] else {
            throw PolicyFileError(key: key, reason: "must be an object")
        }
        return object
    }

    private static func allowOnly(_ keys: Set<String>, in object: [String: Any], at key: String)
        throws(PolicyFileError)
    {
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw PolicyFileError(
                key: key.isEmpty ? unknown : "\(key).\(unknown)",
                reason: "unknown key (known: \(keys.sorted().joined(separator: ", ")))")
        }
    }

    private static func factorCount(_ value: Any, at key: String) throws(PolicyFileError) -> Int {
        // A JSON true or false is an NSNumber too (of type `c`); it is not a count.
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
            [1, 2].contains(number.doubleValue)
        else { throw PolicyFileError(key: key, reason: "must be 1 or 2") }
        return number.intValue
    }

    private static func kindSet(_ value: Any, at key: String) throws(PolicyFileError) -> Set<VerificationMethodKind> {
        let known = VerificationMethodKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let list = value as? [Any], !list.isEmpty else {
            throw PolicyFileError(key: key, reason: "must be a non-empty list of \(known)")
        }
        var kinds: Set<VerificationMethodKind> = []
        for item in list {
            guard let name = item as? String, let kind = VerificationMethodKind(rawValue: name) else {
                throw PolicyFileError(key: key, reason: "\(item) is not a factor kind (\(known))")
            }
            kinds.insert(kind)
        }
        return kinds
    }

    private static func requireEnough(_ kinds: Set<VerificationMethodKind>, for factors: Int, at key: String)
        throws(PolicyFileError)
    {
        guard kinds.count >= factors else {
            throw PolicyFileError(key: key, reason: "asks for \(factors) different kinds but allows \(kinds.count)")
        }
    }

    private static func parameterName(_ value: Any?, at key: String) throws(PolicyFileError) -> String {
        guard let name = value as? String, (1...64).contains(name.count) else {
            throw PolicyFileError(key: key, reason: "must be a parameter name (1-64 characters)")
        }
        return name
    }

    private static func amounts(_ value: Any, at key: String) throws(PolicyFileError) -> [String: PolicyAmount] {
        let object = try object(value, at: key)
        var amounts: [String: PolicyAmount] = [:]
        // Sorted, so that of two spellings of one unit the same one is named whatever the dictionary's order.
        for (name, raw) in object.sorted(by: { $0.key < $1.key }) {
            // Issue 41 P1: the file's units in the normal form a verification's unit is compared in.
            guard let unit = PolicyUnit.normal(name) else {
                throw PolicyFileError(
                    key: "\(key).\(name)",
                    reason: "not a unit (1-\(PolicyUnit.maximumLength) of A-Z 0-9 . _ -, compared without case)")
            }
            guard amounts[unit] == nil else {
                throw PolicyFileError(
                    key: "\(key).\(name)", reason: "names \(unit) a second time (units are compared without case)")
            }
            guard let text = raw as? String, let amount = PolicyAmount(text) else {
                throw PolicyFileError(
                    key: "\(key).\(name)", reason: "must be a decimal string such as \"10000\" or \"0.5\"")
            }
            amounts[unit] = amount
        }
        return amounts
    }

    /// `"24h"`, `"30m"` or `"90s"`: a positive whole number and a unit, at most 30 days.
    static func duration(_ value: Any?, at key: String) throws(PolicyFileError) -> Double {
        let wrong = PolicyFileError(
            key: key, reason: "must be a duration such as \"24h\", \"30m\" or \"90s\" (at most 30 days)")
        guard let text = value as? String, let unit = text.last, let count = Int(text.dropLast()), count > 0,
            text.dropLast().allSatisfy(\.isNumber)
        else { throw wrong }
        let seconds: Double
        switch unit {
        case "h": seconds = Double(count) * 3600
        case "m": seconds = Double(count) * 60
        case "s": seconds = Double(count)
        default: throw wrong
        }
        guard seconds <= 30 * 86_400 else { throw wrong }
        return seconds
    }
}
