import LatchCore

extension BiometricOutcome {
    /// The one mapping of an `LAError` code to an outcome (see `BiometricOutcome` for the table).
    ///
    /// `kind` matters only for −6 (`biometryNotAvailable`): during a Face ID or Optic ID prompt it is the
    /// user refusing (or having turned off) this app's permission (`.permissionDenied`, A6); Touch ID has
    /// no per-app permission, so there it is an unavailable sensor (`.notAvailable`). A Cancel (−2) or a
    /// lockout (−8) after a failed scan in the prompt is a failed attempt (see <doc:CountingBiometricAttempts>).
    ///
    ///     BiometricOutcome(BiometricFailure(laErrorCode: -1004), kind: .faceID)   // .notInteractive
    ///     BiometricOutcome(BiometricFailure(laErrorCode: -42), kind: .touchID)    // .unexpected
    ///
    /// With `kind` `nil` (the sensor is not known, or the answer must not depend on it), −6 is an
    /// unavailable sensor (`.notAvailable`): without a sensor there is no app permission to refuse.
    public init(_ failure: BiometricFailure, kind: BiometryKind?) {
        switch failure.code {
        case .authenticationFailed: self = .failed
        case .userCancel: self = failure.scanFailed ? .failedThenCancelled : .userCancel
        case .userFallback: self = .userFallback
        case .systemCancel: self = .systemCancel
        case .appCancel: self = .appCancel
        case .passcodeNotSet: self = .passcodeNotSet
        case .biometryNotAvailable: self = kind?.asksAppPermission == true ? .permissionDenied : .notAvailable
        case .biometryNotEnrolled: self = .notEnrolled
        case .biometryLockout: self = failure.scanFailed ? .failedThenLockedOut : .lockout
        case .notInteractive: self = .notInteractive
        case .invalidContext, .other: self = .unexpected
        }
    }

    /// The outcome of a prompt's result on `kind`.
    public init(_ result: BiometricResult, kind: BiometryKind) {
        switch result {
        case .success: self = .success
        case .failure(let failure): self.init(failure, kind: kind)
        }
    }

    /// The outcome of a prompt's result on the verification page's `sensor` (the same as `init(_:kind:)`).
    public init(_ result: BiometricResult, sensor: BiometryKind) {
        self.init(result, kind: sensor)
    }

    /// The seed's handling class of this outcome (B2), or `nil` for `.success`.
    public var handling: BiometricFailureHandling? {
        switch self {
        case .success: nil
        case .userCancel, .failedThenCancelled, .systemCancel, .appCancel: .cancelLike
        case .passcodeNotSet, .notAvailable, .notEnrolled, .permissionDenied: .settingsLike
        case .lockout, .failedThenLockedOut: .lockout
        case .failed: .authenticationFailed
        case .userFallback: .userFallback
        case .notInteractive: .retryWhenActive
        case .unexpected: .unexpected
        }
    }
}
