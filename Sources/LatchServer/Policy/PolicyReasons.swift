import LatchCore

/// Why a verification asks what it asks (issue 30 §2), as `reasons` of `POST /v1/verifications`:
/// stable codes, messages in the caller's language.
enum PolicyReasons {
    /// The reasons of `requirement` (none for one factor of any kind).
    static func of(_ requirement: PolicyRequirement, language: LatchLanguage) -> [VerificationReason] {
        guard requirement.factors > 1 else { return [] }
        if let tier = requirement.tier, let unit = requirement.amount?.unit {
            let threshold = grouped(tier.threshold.description)
            if requirement.bySum {
                // Issue 41 P2: this amount alone is under the threshold; with the last 24 hours' it is over.
                return [
                    VerificationReason(
                        code: "sum_above_threshold",
                        message: language.pick(
                            "24 小时内累计超过 \(threshold) \(unit)，需要两项验证",
                            "Above \(threshold) \(unit) in 24 hours, two verifications are needed."))
                ]
            }
            return [
                VerificationReason(
                    code: "amount_above_threshold",
                    message: language.pick(
                        "金额超过 \(threshold) \(unit)，需要两项验证", "Amounts above \(threshold) \(unit) need two verifications."
                    ))
            ]
        }
        return [
            VerificationReason(
                code: "action_needs_two_factors",
                message: language.pick("此操作需要两项验证", "This action needs two verifications."))
        ]
    }

    /// "10000" as "10,000" (the fraction untouched).
    static func grouped(_ amount: String) -> String {
        let parts = amount.split(separator: ".", maxSplits: 1)
        var whole = Array(parts.first.map(String.init) ?? "")
        var index = whole.count - 3
        while index > 0 {
            whole.insert(",", at: index)
            index -= 3
        }
        return String(whole) + (parts.count == 2 ? "." + parts[1] : "")
    }
}
