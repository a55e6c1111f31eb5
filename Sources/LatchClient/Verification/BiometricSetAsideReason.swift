import Foundation

/// Why the verification page set biometrics aside (A7): the device's reason that they cannot be used
/// (`BiometricUnavailableReason`, the same words as availability and biometric sign-in), or one only a
/// verification can find.
public enum BiometricSetAsideReason: Sendable, Hashable, CaseIterable {
    /// The sensor cannot be used: locked out, nothing enrolled, no passcode, off, or no sensor at all.
    case unavailable(BiometricUnavailableReason)
    /// The server did not accept the device's signature (or the key could not sign).
    case rejected
    /// The enrolled faces or fingers changed since biometrics were enabled here (seed 001 "指纹支付 … Hash值",
    /// B4): they cannot prove the owner until turned on again.
    case enrollmentChanged

    public static var allCases: [Self] {
        BiometricUnavailableReason.allCases.map(Self.unavailable) + [.rejected, .enrollmentChanged]
    }
}
