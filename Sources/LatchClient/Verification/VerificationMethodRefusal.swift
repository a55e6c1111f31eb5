/// Why the server refused an answer's method before checking it (issue 30 §3): 422 VALIDATION_FAILED with
/// `field` `method`.
public enum VerificationMethodRefusal: String, Sendable, Equatable {
    /// `already_passed`: this kind passed already; the policy asks for a different kind.
    case alreadyPassed = "already_passed"
    /// `not_offered`: the policy does not count this kind for the action, or the factor is too new for a
    /// held action (issue 28 §2).
    case notOffered = "not_offered"
}
