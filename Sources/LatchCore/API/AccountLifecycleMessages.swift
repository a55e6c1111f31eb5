import Foundation

/// What became of the account's Sign in with Apple authorization when it was deleted (issue 12 §1).
///
/// When it is `notPossible`, the app should tell the user how to stop using Apple ID with the app
/// themselves: Settings → [name] → Sign-In & Security → Sign in with Apple → the app → Stop Using Apple ID.
public enum AppleRevocation: String, Codable, Sendable, Equatable, CaseIterable {
    /// Apple confirmed the revocation of the app's tokens for this user.
    case revoked
    /// The account used Sign in with Apple, but latchd held no Apple refresh token (or Apple could not
    /// be reached): the user has to stop using Apple ID with the app in Settings.
    case notPossible = "not_possible"
    /// The account never used Sign in with Apple.
    case notLinked = "not_linked"
}

/// The optional body of `DELETE /v1/me`.
public struct DeleteAccountRequest: Codable, Sendable, Equatable {
    /// A verification token for action `delete_account` (parameters `{}`), needed when the session
    /// signed in more than 10 minutes ago.
    public var verificationToken: String?

    public init(verificationToken: String? = nil) { self.verificationToken = verificationToken }

    enum CodingKeys: String, CodingKey {
        case verificationToken = "verification_token"
    }
}

/// The answer of `DELETE /v1/me` (200).
public struct AccountDeleted: Codable, Sendable, Equatable {
    public var appleRevocation: AppleRevocation

    public init(appleRevocation: AppleRevocation) { self.appleRevocation = appleRevocation }

    enum CodingKeys: String, CodingKey {
        case appleRevocation = "apple_revocation"
    }
}

/// `GET /v1/me/export`: everything latchd holds about the signed-in user, as one document. Secrets
/// (password and fund-password hashes, TOTP secrets, recovery codes, refresh tokens, Apple tokens)
/// are never in it: factors appear only as whether they are set.
public struct AccountExport: Codable, Sendable, Equatable {
    /// A device installation that has signed in to the account (sign-ins from others are screened).
    public struct KnownDevice: Codable, Sendable, Equatable {
        public var deviceId: String
        public var firstSeenAt: Date

        public init(deviceId: String, firstSeenAt: Date) {
            self.deviceId = deviceId
            self.firstSeenAt = firstSeenAt
        }

        enum CodingKeys: String, CodingKey {
            case deviceId = "device_id"
            case firstSeenAt = "first_seen_at"
        }
    }

    /// Which second factors are set up (never the secrets themselves).
    public struct Factors: Codable, Sendable, Equatable {
        /// An authenticator app (TOTP) is active.
        public var totp: Bool
        /// A fund password is set.
        public var fundPassword: Bool
        /// At least one device key is bound for biometric sign-in and verification.
        public var biometric: Bool
        /// Unused TOTP recovery codes.
        public var recoveryCodesRemaining: Int

        public init(totp: Bool, fundPassword: Bool, biometric: Bool, recoveryCodesRemaining: Int) {
            self.totp = totp
            self.fundPassword = fundPassword
            self.biometric = biometric
            self.recoveryCodesRemaining = recoveryCodesRemaining
        }

        enum CodingKeys: String, CodingKey {
            case totp, biometric
            case fundPassword = "fund_password"
            case recoveryCodesRemaining = "recovery_codes_remaining"
        }
    }

    public var exportedAt: Date
    /// The profile, with its identities.
    public var user: UserInfo
    public var securitySettings: SecuritySettings
    /// Every session the account has (ended ones too, while latchd keeps them).
    public var sessions: [SessionInfo]
    public var deviceCredentials: [DeviceCredentialInfo]
    /// The account's passkeys (their public keys stay on the server; nothing here signs in).
    public var passkeys: [PasskeyInfo]
    public var knownDevices: [KnownDevice]
    public var factors: Factors
    /// The account's security log, newest first.
    public var securityEvents: [SecurityEventInfo]

    public init(
        exportedAt: Date, user: UserInfo, securitySettings: SecuritySettings, sessions: [SessionInfo],
        deviceCredentials: [DeviceCredentialInfo], passkeys: [PasskeyInfo] = [], knownDevices: [KnownDevice],
        factors: Factors,
        securityEvents: [SecurityEventInfo]
    ) {
        self.passkeys = passkeys
        self.exportedAt = exportedAt
        self.user = user
        self.securitySettings = securitySettings
        self.sessions = sessions
        self.deviceCredentials = deviceCredentials
        self.knownDevices = knownDevices
        self.factors = factors
        self.securityEvents = securityEvents
    }

    enum CodingKeys: String, CodingKey {
        case user, sessions, factors, passkeys
        case exportedAt = "exported_at"
        case securitySettings = "security_settings"
        case deviceCredentials = "device_credentials"
        case knownDevices = "known_devices"
        case securityEvents = "security_events"
    }
}
