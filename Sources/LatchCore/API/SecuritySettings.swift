/// `GET /v1/me/security-settings`.
public struct SecuritySettings: Codable, Sendable, Equatable {
    /// Whether a sign-in from a new device must be confirmed with a code (C8; on by default).
    public var verifyUnusualSignIns: Bool
    /// Which second factors are set up (`GET` and `PATCH /v1/me/security-settings` say; absent in the
    /// export, which lists them itself). What a settings screen shows without the export, which needs a
    /// recent sign-in (issue 20 §4).
    public var factors: AccountExport.Factors?

    public init(verifyUnusualSignIns: Bool, factors: AccountExport.Factors? = nil) {
        self.verifyUnusualSignIns = verifyUnusualSignIns
        self.factors = factors
    }

    enum CodingKeys: String, CodingKey {
        case verifyUnusualSignIns = "verify_unusual_sign_ins"
        case factors
    }
}

/// `PATCH /v1/me/security-settings`: the settings to change.
public struct SecuritySettingsUpdate: Codable, Sendable, Equatable {
    public var verifyUnusualSignIns: Bool?
    /// Needed to turn the check off more than 10 minutes after signing in (action
    /// `disable_unusual_sign_in_check`).
    public var verificationToken: String?

    public init(verifyUnusualSignIns: Bool?, verificationToken: String? = nil) {
        self.verifyUnusualSignIns = verifyUnusualSignIns
        self.verificationToken = verificationToken
    }

    enum CodingKeys: String, CodingKey {
        case verifyUnusualSignIns = "verify_unusual_sign_ins"
        case verificationToken = "verification_token"
    }
}
