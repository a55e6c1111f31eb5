/// How one biometric prompt ended: the SDK's one biometric vocabulary. Every `LAError` code is mapped
/// here once (`init(_:kind:)`, in `BiometricOutcome+Failure.swift`), and both the verification page
/// (`VerificationFlow.biometricFinished`) and biometric sign-in (`BiometricSignIn.evaluationFinished`)
/// read this type. Each of them decides its own reaction to an outcome.
///
/// The mapping (B2, seed 003, Apple's `LAError.Code` documentation):
/// success → `.success`; −1 → `.failed`; −2 → `.userCancel` (`.failedThenCancelled` after a failed
/// scan); −3 → `.userFallback`; −4 → `.systemCancel`; −5 → `.passcodeNotSet`; −6 → `.permissionDenied`
/// on Face ID and Optic ID (the app's permission is off), `.notAvailable` on Touch ID; −7 →
/// `.notEnrolled`; −8 → `.lockout` (`.failedThenLockedOut` after a failed scan); −9 → `.appCancel`;
/// −1004 → `.notInteractive`; −10 and every code Apple may add → `.unexpected`.
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
    /// The user pressed the prompt's fallback button ("使用密码验证" / "Use Password").
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
    /// −1004 `notInteractive`: the prompt could not appear because the app was not active ("displaying
    /// the required authentication user interface is forbidden"). Nobody failed or cancelled anything;
    /// evaluating again once the app is active shows the prompt.
    case notInteractive
    /// −10 `invalidContext` ("the context was previously invalidated": a programming error, seed 003 —
    /// the SDK makes a fresh `LAContext` per prompt) and any code this SDK does not know. The user cannot
    /// fix it: not counted as a failed attempt, not a reason to send anyone to Settings; a new prompt
    /// (with a new context) may be offered, with the other methods.
    case unexpected
}
