/// The outcome of `BiometricEnrollment.enable`.
public enum BiometricEnableResult: Sendable, Hashable {
    /// Biometric login is on, with this binding.
    case enabled(BiometricBinding)
    /// Biometrics cannot be used now (B1); nothing changed.
    case unavailable(BiometricUnavailableReason)
    /// The biometric check did not pass (B2); nothing changed.
    case notVerified(BiometricFailure)
}
