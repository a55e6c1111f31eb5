/// An `LAError` code, by its integer value, so that the mapping of B2 is plain Swift and is tested on
/// Linux. The Apple adapter passes `(error as NSError).code` to `init(code:)`; nothing else here
/// knows LocalAuthentication.
///
///     BiometricErrorCode(code: -2)            // .userCancel
///     BiometricErrorCode(code: -2).handling   // .cancelLike
///     BiometricErrorCode(code: -42)           // .other(-42)
public enum BiometricErrorCode: Sendable, Hashable {
    /// −1: the biometric did not match (reported by Touch ID; Face ID shows its own retry page).
    case authenticationFailed
    /// −2: the user tapped Cancel.
    case userCancel
    /// −3: the user tapped the fallback button (`localizedFallbackTitle`).
    case userFallback
    /// −4: the system cancelled (incoming call, another app came to the front).
    case systemCancel
    /// −5: no device passcode is set.
    case passcodeNotSet
    /// −6: biometry is not available: no sensor, or the user turned this app's permission off.
    case biometryNotAvailable
    /// −7: no face or finger is enrolled.
    case biometryNotEnrolled
    /// −8: locked after too many failures; the device passcode unlocks it.
    case biometryLockout
    /// −9: the app cancelled (`LAContext.invalidate()`), e.g. when another app interrupted.
    case appCancel
    /// −10: the `LAContext` was invalid (released or invalidated too early: a programming error).
    case invalidContext
    /// −1004: evaluation was asked for while the app was not active, so no UI could be shown.
    case notInteractive
    /// Any other code (newer or platform-specific ones such as macOS's −11…−14), kept as is.
    case other(Int)

    /// The code for `code`; unknown values become `.other(code)`.
    public init(code: Int) {
        switch code {
        case -1: self = .authenticationFailed
        case -2: self = .userCancel
        case -3: self = .userFallback
        case -4: self = .systemCancel
        case -5: self = .passcodeNotSet
        case -6: self = .biometryNotAvailable
        case -7: self = .biometryNotEnrolled
        case -8: self = .biometryLockout
        case -9: self = .appCancel
        case -10: self = .invalidContext
        case -1004: self = .notInteractive
        default: self = .other(code)
        }
    }

    /// Every code B2 names, in the order of its table.
    public static let named: [BiometricErrorCode] = [
        .authenticationFailed, .userCancel, .userFallback, .systemCancel, .passcodeNotSet, .biometryNotAvailable,
        .biometryNotEnrolled, .biometryLockout, .appCancel, .invalidContext, .notInteractive
    ]

    /// The integer `LAError` code.
    public var code: Int {
        switch self {
        case .authenticationFailed: -1
        case .userCancel: -2
        case .userFallback: -3
        case .systemCancel: -4
        case .passcodeNotSet: -5
        case .biometryNotAvailable: -6
        case .biometryNotEnrolled: -7
        case .biometryLockout: -8
        case .appCancel: -9
        case .invalidContext: -10
        case .notInteractive: -1004
        case .other(let code): code
        }
    }

    /// How an app should react to this code (B2): the handling class of its `BiometricOutcome` (the one
    /// mapping), without a failed scan.
    public var handling: BiometricFailureHandling { BiometricFailure(code: self).handling }

    /// The `LAError` constant's name, for logs: `userCancel`, `other(-42)`.
    public var name: String {
        switch self {
        case .authenticationFailed: "authenticationFailed"
        case .userCancel: "userCancel"
        case .userFallback: "userFallback"
        case .systemCancel: "systemCancel"
        case .passcodeNotSet: "passcodeNotSet"
        case .biometryNotAvailable: "biometryNotAvailable"
        case .biometryNotEnrolled: "biometryNotEnrolled"
        case .biometryLockout: "biometryLockout"
        case .appCancel: "appCancel"
        case .invalidContext: "invalidContext"
        case .notInteractive: "notInteractive"
        case .other(let code): "other(\(code))"
        }
    }
}
