/// How one biometric evaluation ended, as the verification flow needs to know it.
///
/// The integration layer maps the LocalAuthentication result onto it (B2):
/// success → `.success`; `LAError` −1 → `.failed`, −2 → `.userCancel` (`.failedThenCancelled` after a
/// failed scan), −3 → `.userFallback`,
/// −4 → `.systemCancel`, −5 → `.passcodeNotSet`, −6 → `.notAvailable` (or `.permissionDenied` when
/// the app's Face ID permission is off), −7 → `.notEnrolled`, −8 → `.lockout`, −9 → `.appCancel`,
/// −10 and −1004 → `.systemCancel` (the prompt could not be shown; retrying is safe).
public enum BiometricOutcome: String, Sendable, Equatable, CaseIterable {
    /// The face or finger matched.
    case success
    /// It did not match: one failed attempt of the three (A3). Touch ID's −1, after three failed touches.
    case failed
    /// The user pressed the system prompt's Cancel after a scan or touch failed in it: one failed attempt
    /// of the three (A3), not the page's cancel. On Face ID this is how a failed attempt ends, as Face ID
    /// never reports −1.
    case failedThenCancelled
    /// The user pressed the system prompt's cancel button without a failed scan: the verification is
    /// cancelled (A4).
    case userCancel
    /// The system interrupted the prompt (a call, another app, the screen locking): not a failure (A8).
    case systemCancel
    /// The app cancelled the prompt itself (the flow moved on).
    case appCancel
    /// The user pressed the prompt's fallback button ("使用密码验证").
    case userFallback
    /// Biometrics are locked after too many failures system-wide (A7), and no scan failed in this prompt
    /// (they were locked before it): the page offers the device passcode, which unlocks them (B2).
    case lockout
    /// The fifth consecutive failure happened in this prompt and locked biometrics: "too many failed
    /// attempts" (A3), then the password.
    case failedThenLockedOut
    /// Biometrics cannot be used right now (A7).
    case notAvailable
    /// No face or finger is enrolled (A7).
    case notEnrolled
    /// No device passcode is set, so biometrics are off (A7).
    case passcodeNotSet
    /// The app is not allowed to use Face ID (A6).
    case permissionDenied
}
