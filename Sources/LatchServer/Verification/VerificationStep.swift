import LatchCore

/// What one attempt by a method means for its verification (issue 44 §2), decided as a pure value
/// before the method is verified: refused (the plan does not let the kind count or a running security
/// hold does not admit it; the kind already passed), or, once the method verifies, one pass recorded
/// while another kind is needed, or the verification complete.
enum VerificationStep: Equatable, Sendable {
    case notOffered
    case alreadyPassed
    /// The kinds passed with this one, and how many more must pass.
    case needsAnother(passed: [VerificationMethodKind], remaining: Int)
    /// The kinds that passed, this one last.
    case complete(passed: [VerificationMethodKind])

    /// The step of an attempt by `method` at a verification with `plan` whose `passed` kinds passed;
    /// `admitted` is whether a security hold lets `method` answer (issue 28 §2; true without a hold).
    static func of(
        _ method: VerificationMethodKind, plan: VerificationPlan, passed: [VerificationMethodKind], admitted: Bool
    ) -> VerificationStep {
        guard plan.allows(method) else { return .notOffered }
        guard !passed.contains(method) else { return .alreadyPassed }
        guard admitted else { return .notOffered }
        let after = passed + [method]
        guard after.count < plan.requiredFactors else { return .complete(passed: after) }
        return .needsAnother(passed: after, remaining: plan.requiredFactors - after.count)
    }
}
