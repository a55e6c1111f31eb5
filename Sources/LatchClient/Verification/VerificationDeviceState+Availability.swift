extension VerificationDeviceState {
    /// The device's state for a verification, from the authenticator's availability check (B1), the
    /// sensor biometric login was enabled with, and whether the Face ID permission was granted before.
    ///
    /// An unavailable Face ID sensor is read as the app's permission being off (A6: the page explains
    /// how to turn it on and offers the password); Face ID that was never used by this app starts with
    /// the permission explanation.
    public init(
        biometricCredentialID: String?, availability: BiometricAvailability, boundSensor: BiometryKind?,
        faceIDPermissionGranted: Bool
    ) {
        let sensor = VerificationSensor(availability.kind ?? boundSensor ?? .faceID)
        let biometry: Biometry
        switch availability {
        case .available:
            let permission: VerificationPermission =
                sensor == .faceID && !faceIDPermissionGranted ? .notDetermined : .granted
            biometry = .available(sensor, permission: permission)
        case .unavailable(.notAvailable):
            biometry = sensor == .faceID ? .available(.faceID, permission: .denied) : .notAvailable(sensor)
        case .unavailable(.notEnrolled): biometry = .notEnrolled(sensor)
        case .unavailable(.passcodeNotSet): biometry = .notAvailable(sensor)
        case .unavailable(.lockedOut): biometry = .lockedOut(sensor)
        case .unavailable(.notSupported): biometry = .notSupported
        }
        self.init(biometricCredentialID: biometricCredentialID, biometry: biometry)
    }
}

extension VerificationSensor {
    /// The page's sensor for a device sensor: Face ID for Face ID and Optic ID, Touch ID for Touch ID.
    public init(_ kind: BiometryKind) {
        self = kind == .touchID ? .touchID : .faceID
    }
}
