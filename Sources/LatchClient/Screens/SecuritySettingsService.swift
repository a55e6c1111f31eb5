import LatchCore

/// What the security settings screen needs; ``LatchSecuritySettingsService`` is the SDK's, tests
/// pass a fake. Calls that need a recent sign-in throw VERIFICATION_REQUIRED when it is older than
/// 10 minutes; the screen then runs the verification page and calls again with its token.
public protocol SecuritySettingsService: Sendable {
    /// The switches' current positions.
    func securityStatus() async throws -> SecurityStatus
    /// Turns biometric sign-in on (B5): a biometric check, a new device key, bound on the server
    /// (`bind_device`).
    func enableBiometricSignIn(verificationToken: String?) async throws -> BiometricEnableResult
    /// Turns biometric sign-in off on this device (and on the server, now or later).
    func disableBiometricSignIn() async throws
    /// `POST /v1/mfa/totp` (`enable_totp`): a new authenticator secret.
    func startTwoFactorSetup(verificationToken: String?) async throws -> TOTPEnrollment
    /// `POST /v1/mfa/totp/activate`: 2FA is on; returns the recovery codes, shown once.
    func activateTwoFactor(code: String) async throws -> [String]
    /// `DELETE /v1/mfa/totp` with a token for `disable_totp`.
    func disableTwoFactor(verificationToken: String) async throws
    /// `PUT /v1/fund-password`: sets it (`set_fund_password`) or changes it with the current one.
    func setFundPassword(_ fundPassword: String, current: String?, verificationToken: String?) async throws
    /// `PATCH /v1/me/security-settings`; turning the check off needs `disable_unusual_sign_in_check`.
    /// Returns the setting as the server now has it.
    func setVerifyUnusualSignIns(_ on: Bool, verificationToken: String?) async throws -> Bool
    /// `PATCH /v1/me/security-settings` `notify_new_devices`; turning the notice off needs
    /// `disable_new_device_notice` (and the server mails the owner). Returns the setting as the server
    /// now has it.
    func setNotifyNewDevices(_ on: Bool, verificationToken: String?) async throws -> Bool
}
