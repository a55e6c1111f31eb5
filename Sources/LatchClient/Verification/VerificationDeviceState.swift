import LatchCore

/// What this device can do for a verification, read once before the flow starts.
///
/// The integration layer fills it from the authenticator's availability check and the device-key
/// store:
///
///     let device = VerificationDeviceState(
///         biometricCredentialID: deviceKeys.boundCredentialID,   // nil: biometrics not enabled here
///         biometry: .available(.faceID, permission: .notDetermined))
public struct VerificationDeviceState: Sendable, Equatable {
    /// Whether biometric evaluation can run, and if not, why.
    public enum Biometry: Sendable, Equatable {
        /// The sensor is ready. `permission` is the app's Face ID permission (`NSFaceIDUsageDescription`,
        /// which the seed calls the camera permission); Touch ID needs none, so it is ignored for `.touchID`.
        case available(BiometryKind, permission: VerificationPermission)
        /// The device has no biometric sensor.
        case notSupported
        /// The sensor exists but no face or finger is enrolled.
        case notEnrolled(BiometryKind)
        /// The sensor exists but cannot be used now (turned off, no passcode set, restricted).
        case notAvailable(BiometryKind)
        /// Too many failed attempts system-wide: the device passcode must unlock biometrics first.
        case lockedOut(BiometryKind)
    }

    /// The server id of this device's biometric key, when the user enabled biometric verification
    /// on this device; `nil` when they did not (then the flow starts with 2FA or the fund password).
    public var biometricCredentialID: String?
    /// The sensor's state.
    public var biometry: Biometry
    /// Biometrics were enabled here, but the enrolled faces or fingers changed since (the domain state
    /// differs, seed 001, B4): `biometricCredentialID` is `nil` and the page says why it offers no biometrics.
    public var biometricEnrollmentChanged: Bool

    public init(biometricCredentialID: String?, biometry: Biometry, biometricEnrollmentChanged: Bool = false) {
        self.biometricCredentialID = biometricCredentialID
        self.biometry = biometry
        self.biometricEnrollmentChanged = biometricEnrollmentChanged
    }
}

/// The app's permission to use Face ID (A6). The seed calls it the camera permission.
public enum VerificationPermission: String, Sendable, Equatable, CaseIterable {
    /// Never asked: the first use shows the explanation "需要使用相机进行面容识别验证" /
    /// "Face ID verification needs access to the camera." first.
    case notDetermined
    /// Allowed: evaluation starts straight away.
    case granted
    /// Refused: "无法使用Face ID，请在设置中开启相机权限" / "Face ID is unavailable. Please allow camera access in Settings."
    /// with a "使用密码验证" / "Use Password" option.
    case denied
}
