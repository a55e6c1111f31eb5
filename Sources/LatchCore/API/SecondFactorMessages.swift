/// `POST /v1/mfa/totp`: a new, not yet active authenticator secret.
public struct TOTPEnrollment: Codable, Sendable, Equatable {
    /// The secret in base32, for manual entry.
    public var secret: String
    /// `otpauth://totp/…` for a QR code.
    public var otpauthURI: String

    public init(secret: String, otpauthURI: String) {
        self.secret = secret
        self.otpauthURI = otpauthURI
    }

    enum CodingKeys: String, CodingKey {
        case secret
        case otpauthURI = "otpauth_uri"
    }
}

/// `POST /v1/mfa/totp/activate`: the first code from the authenticator app.
public struct TOTPActivationRequest: Codable, Sendable, Equatable {
    public var code: String

    public init(code: String) { self.code = code }
}

/// The answer to activation: ten single-use recovery codes, shown once.
public struct TOTPActivated: Codable, Sendable, Equatable {
    public var recoveryCodes: [String]

    public init(recoveryCodes: [String]) { self.recoveryCodes = recoveryCodes }

    enum CodingKeys: String, CodingKey { case recoveryCodes = "recovery_codes" }
}

/// A body that carries only a verification token (e.g. `DELETE /v1/mfa/totp`).
public struct VerificationTokenBody: Codable, Sendable, Equatable {
    public var verificationToken: String

    public init(verificationToken: String) { self.verificationToken = verificationToken }

    enum CodingKeys: String, CodingKey { case verificationToken = "verification_token" }
}

/// `PUT /v1/fund-password`. Setting it the first time needs a recent sign-in; changing it needs
/// the current one or a verification token for action `change_fund_password`.
public struct FundPasswordRequest: Codable, Sendable, Equatable {
    public var fundPassword: String
    public var currentFundPassword: String?
    public var verificationToken: String?

    public init(fundPassword: String, currentFundPassword: String? = nil, verificationToken: String? = nil) {
        self.fundPassword = fundPassword
        self.currentFundPassword = currentFundPassword
        self.verificationToken = verificationToken
    }

    enum CodingKeys: String, CodingKey {
        case fundPassword = "fund_password"
        case currentFundPassword = "current_fund_password"
        case verificationToken = "verification_token"
    }
}
