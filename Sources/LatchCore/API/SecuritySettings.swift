/// `GET /v1/me/security-settings`.
public struct SecuritySettings: Codable, Sendable, Equatable {
    /// Whether a sign-in from a new device must be confirmed with a code (C8; on by default).
    public var verifyUnusualSignIns: Bool
    /// "新设备登录时通知" / "Notify me of sign-ins from new devices" (seed 004 §6.2): whether a sign-in
    /// from a new device is mailed to the owner (on by default; a server that does not send it is read
    /// as on, since it always mailed them).
    public var notifyNewDevices: Bool
    /// Which second factors are set up (`GET` and `PATCH /v1/me/security-settings` say; absent in the
    /// export, which lists them itself). What a settings screen shows without the export, which needs a
    /// recent sign-in (issue 20 §4).
    public var factors: AccountExport.Factors?

    public init(verifyUnusualSignIns: Bool, notifyNewDevices: Bool = true, factors: AccountExport.Factors? = nil) {
        self.verifyUnusualSignIns = verifyUnusualSignIns
        self.notifyNewDevices = notifyNewDevices
        self.factors = factors
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        verifyUnusualSignIns = try container.decode(Bool.self, forKey: .verifyUnusualSignIns)
        notifyNewDevices = try container.decodeIfPresent(Bool.self, forKey: .notifyNewDevices) ?? true
        factors = try container.decodeIfPresent(AccountExport.Factors.self, forKey: .factors)
    }

    enum CodingKeys: String, CodingKey {
        case verifyUnusualSignIns = "verify_unusual_sign_ins"
        case notifyNewDevices = "notify_new_devices"
        case factors
    }
}

/// `PATCH /v1/me/security-settings`: the settings to change (an absent one stays as it is).
public struct SecuritySettingsUpdate: Codable, Sendable, Equatable {
    public var verifyUnusualSignIns: Bool?
    /// "新设备登录时通知": turning it off needs a recent sign-in or a verification of
    /// `disable_new_device_notice`, and is mailed to the owner.
    public var notifyNewDevices: Bool?
    /// Needed to turn a protection off more than 10 minutes after signing in: a token for
    /// `disable_unusual_sign_in_check` or `disable_new_device_notice` (one protection per token).
    public var verificationToken: String?

    public init(verifyUnusualSignIns: Bool? = nil, notifyNewDevices: Bool? = nil, verificationToken: String? = nil) {
        self.verifyUnusualSignIns = verifyUnusualSignIns
        self.notifyNewDevices = notifyNewDevices
        self.verificationToken = verificationToken
    }

    enum CodingKeys: String, CodingKey {
        case verifyUnusualSignIns = "verify_unusual_sign_ins"
        case notifyNewDevices = "notify_new_devices"
        case verificationToken = "verification_token"
    }
}
