extension BiometricOutcome {
    /// What one prompt's result means to the verification flow (B2 by `LAError` code).
    ///
    /// −6 (`biometryNotAvailable`) during a Face ID prompt is the user refusing the app's Face ID
    /// permission (`.permissionDenied`, A6); for Touch ID it is an unavailable sensor. −10 and −1004
    /// (the prompt could not be shown) are interruptions, safe to retry. A Cancel (−2) or a lockout (−8)
    /// after a failed scan in the prompt is a failed attempt (see <doc:CountingBiometricAttempts>).
    public init(_ result: BiometricResult, sensor: VerificationSensor) {
        guard case .failure(let failure) = result else {
            self = .success
            return
        }
        switch failure.code {
        case .authenticationFailed: self = .failed
        case .userCancel: self = failure.scanFailed ? .failedThenCancelled : .userCancel
        case .userFallback: self = .userFallback
        case .systemCancel, .invalidContext, .notInteractive: self = .systemCancel
        case .passcodeNotSet: self = .passcodeNotSet
        case .biometryNotAvailable: self = sensor == .faceID ? .permissionDenied : .notAvailable
        case .biometryNotEnrolled: self = .notEnrolled
        case .biometryLockout: self = failure.scanFailed ? .failedThenLockedOut : .lockout
        case .appCancel: self = .appCancel
        case .other: self = .notAvailable
        }
    }
}
