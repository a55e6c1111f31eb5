import LatchCore

extension LatchClient {
    /// The verification action that turns the unusual sign-in check off more than 10 minutes after
    /// signing in (parameters `[:]`).
    public static let disableUnusualSignInCheckAction = VerificationAction.disableUnusualSignInCheck.rawValue
    /// The verification action that turns "新设备登录时通知" off more than 10 minutes after signing in
    /// (parameters `[:]`).
    public static let disableNewDeviceNoticeAction = VerificationAction.disableNewDeviceNotice.rawValue

    /// `GET /v1/me/security-settings`.
    public func securitySettings() async throws -> SecuritySettings {
        try await perform(
            APICall<SecuritySettings>(method: "GET", path: "/v1/me/security-settings", requiresAuthorization: true))
    }

    /// `PATCH /v1/me/security-settings`: turning "verify unusual sign-ins" off needs a sign-in within 10
    /// minutes or `update.verificationToken` for ``disableUnusualSignInCheckAction``; turning the
    /// new-device notice off, one for ``disableNewDeviceNoticeAction`` (a token serves one of them).
    @discardableResult
    public func updateSecuritySettings(_ update: SecuritySettingsUpdate) async throws -> SecuritySettings {
        try await perform(
            APICall<SecuritySettings>(
                method: "PATCH", path: "/v1/me/security-settings", body: update, requiresAuthorization: true))
    }
}
