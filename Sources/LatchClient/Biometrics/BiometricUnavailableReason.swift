/// Why biometrics cannot be used (B1).
public enum BiometricUnavailableReason: Sendable, Hashable, CaseIterable {
    /// No face or finger is enrolled (−7): guide to Settings.
    case notEnrolled
    /// No device passcode is set (−5): guide to Settings.
    case passcodeNotSet
    /// The sensor exists but cannot be used: this app's Face ID permission is off, or the sensor is
    /// disabled (−6): guide to Settings.
    case notAvailable
    /// Locked after too many failures (−8): the device passcode unlocks it.
    case lockedOut
    /// No biometric sensor, or an OS too old for it. (B1's "OS too old" cannot happen on the SDK's
    /// minimum of iOS 17, so both are this one case.)
    case notSupported

    /// The B2 handling class this reason belongs to; `nil` for `.notSupported`, which nothing fixes.
    public var handling: BiometricFailureHandling? {
        switch self {
        case .notEnrolled, .passcodeNotSet, .notAvailable: .settingsLike
        case .lockedOut: .lockout
        case .notSupported: nil
        }
    }
}
