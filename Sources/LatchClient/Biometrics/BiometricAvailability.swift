/// Whether biometrics can be used right now (B1), from `canEvaluatePolicy` on Apple platforms.
///
///     switch await authenticator.availability() {
///     case .available(let kind): showButton(title: kind.displayName)
///     case .unavailable(.lockedOut): offerPassword()
///     case .unavailable(let reason): showHint(reason)
///     }
public enum BiometricAvailability: Sendable, Hashable {
    /// A sensor of `kind` is present, enrolled and allowed for this app.
    case available(kind: BiometryKind)
    /// Biometrics cannot be used now, for `reason`.
    case unavailable(BiometricUnavailableReason)

    /// Maps what `LAContext.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error:)` said:
    /// whether it succeeded, the `LAError` code it reported, and the sensor `biometryType` named
    /// afterwards (`nil` for `.none`).
    ///
    /// - −5 → `.passcodeNotSet`, −7 → `.notEnrolled`, −8 → `.lockedOut`;
    /// - −6 with a sensor → `.notAvailable` (this app's permission is off, or the sensor is disabled);
    ///   −6 without one → `.notSupported` (no sensor);
    /// - any other failure → `.notAvailable` with a sensor, `.notSupported` without.
    public init(canEvaluate: Bool, errorCode: Int?, kind: BiometryKind?) {
        if canEvaluate, let kind {
            self = .available(kind: kind)
            return
        }
        guard !canEvaluate, let errorCode else {
            // Success without a sensor name, or failure without a code: nothing usable.
            self = .unavailable(kind == nil ? .notSupported : .notAvailable)
            return
        }
        switch BiometricOutcome(BiometricFailure(laErrorCode: errorCode), kind: kind) {
        case .passcodeNotSet: self = .unavailable(.passcodeNotSet)
        case .notEnrolled: self = .unavailable(.notEnrolled)
        case .lockout, .failedThenLockedOut: self = .unavailable(.lockedOut)
        case .success, .failed, .failedThenCancelled, .userCancel, .systemCancel, .appCancel, .userFallback,
            .notAvailable,
            .permissionDenied, .notInteractive, .unexpected:
            self = .unavailable(kind == nil ? .notSupported : .notAvailable)
        }
    }

    /// The sensor, when available.
    public var kind: BiometryKind? {
        switch self {
        case .available(let kind): kind
        case .unavailable: nil
        }
    }

    /// Whether biometrics can be used now.
    public var isAvailable: Bool { kind != nil }
}
