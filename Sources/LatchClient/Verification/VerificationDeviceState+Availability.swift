import LatchCore

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
        // The seed's page knows Face ID and Touch ID: an Optic ID device gets Face ID's page (the same app
        // permission, the same texts).
        let kind = availability.kind ?? boundSensor ?? .faceID
        let sensor: BiometryKind = kind == .opticID ? .faceID : kind
        let biometry: Biometry
        switch availability {
        case .available:
            let permission: VerificationPermission =
                sensor.asksAppPermission && !faceIDPermissionGranted ? .notDetermined : .granted
            biometry = .available(sensor, permission: permission)
        case .unavailable(.notAvailable):
            biometry = sensor.asksAppPermission ? .available(sensor, permission: .denied) : .notAvailable(sensor)
        case .unavailable(.notEnrolled): biometry = .notEnrolled(sensor)
        case .unavailable(.passcodeNotSet): biometry = .notAvailable(sensor)
        case .unavailable(.lockedOut): biometry = .lockedOut(sensor)
        case .unavailable(.notSupported): biometry = .notSupported
        }
        self.init(biometricCredentialID: biometricCredentialID, biometry: biometry)
    }
}
