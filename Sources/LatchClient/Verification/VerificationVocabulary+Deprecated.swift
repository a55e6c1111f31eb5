import LatchCore

// Issue 23 §2: one vocabulary for the verification page and the API. The page's own names for the same
// things stay as deprecated aliases, so apps built on them keep compiling.

/// One way to pass a verification: the page uses LatchCore's `VerificationMethodKind` (the API's own
/// vocabulary, the same four cases and raw values).
@available(*, deprecated, renamed: "VerificationMethodKind")
public typealias VerificationMethod = VerificationMethodKind

/// The biometric sensor a verification uses: the page uses LatchCore's `BiometryKind`, the same sensor
/// names as biometric sign-in and the API (an Optic ID device is named so, and asks the app permission
/// as Face ID does).
@available(*, deprecated, renamed: "BiometryKind")
public typealias VerificationSensor = BiometryKind

extension BiometryKind {
    /// The page's sensor for a device sensor, from when the page had a type of its own: now the sensor itself.
    @available(*, deprecated, message: "the verification page uses BiometryKind itself")
    public init(_ kind: BiometryKind) {
        self = kind
    }
}

/// Why the page set biometrics aside: the device's reasons are `BiometricUnavailableReason`'s, wrapped in
/// `BiometricSetAsideReason.unavailable(_:)`; `rejected` and `enrollmentChanged` are the page's own.
@available(*, deprecated, renamed: "BiometricSetAsideReason")
public typealias BiometricsUnavailableReason = BiometricSetAsideReason

extension BiometricSetAsideReason {
    @available(*, deprecated, message: "use .unavailable(.lockedOut)")
    public static let lockedOut = Self.unavailable(.lockedOut)
    @available(*, deprecated, message: "use .unavailable(.notEnrolled)")
    public static let notEnrolled = Self.unavailable(.notEnrolled)
    @available(*, deprecated, message: "use .unavailable(.passcodeNotSet)")
    public static let passcodeNotSet = Self.unavailable(.passcodeNotSet)
    @available(*, deprecated, message: "use .unavailable(.notAvailable)")
    public static let notAvailable = Self.unavailable(.notAvailable)
    @available(*, deprecated, message: "use .unavailable(.notSupported)")
    public static let notSupported = Self.unavailable(.notSupported)
}

extension PasskeyError {
    /// 403 VERIFICATION_REQUIRED under its old name. Swift cannot alias an enum case in a pattern: a
    /// `catch PasskeyError.stepUpRequired(let action, let parameters)` becomes
    /// `catch PasskeyError.verificationRequired(let action, let parameters)`.
    @available(*, deprecated, renamed: "verificationRequired(action:parameters:)")
    public static func stepUpRequired(action: String, parameters: [String: String]) -> PasskeyError {
        .verificationRequired(action: action, parameters: parameters)
    }
}
