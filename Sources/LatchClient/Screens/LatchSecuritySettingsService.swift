import LatchCore

/// The security settings screen's service on a real `LatchClient`: factor status from the account
/// export, the unusual sign-in check and the new-device notice from `/v1/me/security-settings`, biometric sign-in from this
/// device's enrollment.
///
///     let service = LatchSecuritySettingsService(
///         client: client, authenticator: LocalAuthenticationAuthenticator(), keys: SecureEnclaveDeviceKeyStore(),
///         language: .zhHans)
public struct LatchSecuritySettingsService: SecuritySettingsService {
    public let client: LatchClient
    public let authenticator: any BiometricAuthenticator
    public let keys: any DeviceKeyStore
    public let language: LatchLanguage

    public init(
        client: LatchClient, authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore,
        language: LatchLanguage
    ) {
        self.client = client
        self.authenticator = authenticator
        self.keys = keys
        self.language = language
    }

    public func securityStatus() async throws -> SecurityStatus {
        // The settings carry the factor status: the export would need a recent sign-in (issue 20 §4).
        let settings = try await client.securitySettings()
        let factors =
            settings.factors ?? .init(totp: false, fundPassword: false, biometric: false, recoveryCodesRemaining: 0)
        let binding = await client.biometricEnrollment(authenticator: authenticator, keys: keys).binding()
        let biometry: BiometryKind?
        let unavailable: BiometricUnavailableReason?
        switch await authenticator.availability() {
        case .available(let kind): (biometry, unavailable) = (kind, nil)
        case .unavailable(let reason): (biometry, unavailable) = (binding?.biometry, reason)
        }
        return SecurityStatus(
            biometry: biometry, biometricUnavailable: unavailable, biometricSignInEnabled: binding != nil,
            twoFactorEnabled: factors.totp, fundPasswordSet: factors.fundPassword,
            verifyUnusualSignIns: settings.verifyUnusualSignIns, notifyNewDevices: settings.notifyNewDevices)
    }

    public func enableBiometricSignIn(verificationToken: String?) async throws -> BiometricEnableResult {
        let kind: BiometryKind =
            switch await authenticator.availability() {
            case .available(let kind): kind
            case .unavailable: .faceID
            }
        return try await client.enableBiometrics(
            authenticator: authenticator, keys: keys, reason: BiometricStrings.enableReason(with: kind, in: language),
            verificationToken: verificationToken)
    }

    public func disableBiometricSignIn() async throws {
        try await client.disableBiometrics(authenticator: authenticator, keys: keys)
    }

    public func startTwoFactorSetup(verificationToken: String?) async throws -> TOTPEnrollment {
        try await client.enrollTOTP(verificationToken: verificationToken)
    }

    public func activateTwoFactor(code: String) async throws -> [String] {
        try await client.activateTOTP(code: code)
    }

    public func disableTwoFactor(verificationToken: String) async throws {
        try await client.disableTOTP(verificationToken: verificationToken)
    }

    public func setFundPassword(_ fundPassword: String, current: String?, verificationToken: String?) async throws {
        try await client.setFundPassword(fundPassword, current: current, verificationToken: verificationToken)
    }

    public func setVerifyUnusualSignIns(_ on: Bool, verificationToken: String?) async throws -> Bool {
        try await client.updateSecuritySettings(
            SecuritySettingsUpdate(verifyUnusualSignIns: on, verificationToken: verificationToken)
        )
        .verifyUnusualSignIns
    }

    public func setNotifyNewDevices(_ on: Bool, verificationToken: String?) async throws -> Bool {
        try await client.updateSecuritySettings(
            SecuritySettingsUpdate(notifyNewDevices: on, verificationToken: verificationToken)
        )
        .notifyNewDevices
    }
}
