/// The outcome of one biometric prompt.
public enum BiometricResult: Sendable, Hashable {
    /// The enrolled face or finger matched.
    case success
    /// The prompt ended without a match; the failure carries the `LAError` code.
    case failure(BiometricFailure)
}
