/// Whether a scan or touch failed in a real system prompt, inferred from what `LAContext` reveals: the
/// `LAError` code, the sensor, whether biometry was already locked out before the prompt, and how long
/// the prompt was up. `LAContext` reports no scan count, so `LocalAuthenticationAuthenticator` asks this
/// rule (tested here, on Linux) and only measures. The reasons are in <doc:CountingBiometricAttempts>.
///
///     FailedScanInference.scanFailed(code: .userCancel, kind: .faceID, lockedOutBefore: false, secondsShown: 0.4)   // true
///     FailedScanInference.scanFailed(code: .userCancel, kind: .touchID, lockedOutBefore: false, secondsShown: 0.8)  // false
public enum FailedScanInference {
    /// Seconds a Touch ID prompt must have been up before its Cancel (−2) counts as following a failed
    /// touch: placing a finger, the failed match and the prompt's "Try Again" shake take about that long.
    public static let touchIDCancelAfterTouch: Double = 3

    /// - Parameters:
    ///   - code: how the prompt ended.
    ///   - kind: the sensor.
    ///   - lockedOutBefore: `canEvaluatePolicy` reported −8 before the prompt (it then fails at once).
    ///   - secondsShown: how long the prompt was up.
    public static func scanFailed(
        code: BiometricErrorCode, kind: BiometryKind, lockedOutBefore: Bool, secondsShown: Double
    ) -> Bool {
        switch code {
        case .authenticationFailed:
            // Touch ID's third failed touch in the prompt.
            return true
        case .biometryLockout:
            // Usable before, locked after: the fifth consecutive failure happened in this prompt.
            return !lockedOutBefore
        case .userFallback:
            // Both sensors show the fallback button only after a failed scan or touch.
            return true
        case .userCancel:
            switch kind {
            case .faceID, .opticID:
                // Face ID's prompt has no buttons while it scans: Cancel appears only on the
                // "Face Not Recognized" page, after failed scans.
                return true
            case .touchID:
                // Touch ID shows Cancel from the start: only time tells a cancel after a touch.
                return secondsShown >= touchIDCancelAfterTouch
            }
        case .systemCancel, .passcodeNotSet, .biometryNotAvailable, .biometryNotEnrolled, .appCancel, .invalidContext,
            .notInteractive, .other:
            return false
        }
    }
}
