/// Why enabling biometric login failed after a successful biometric check.
public enum BiometricEnrollmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The enrollment's domain state could not be read, so a later change could not be detected (B4).
    case enrollmentUnreadable

    public var description: String { "the biometric enrollment state could not be read" }
}
