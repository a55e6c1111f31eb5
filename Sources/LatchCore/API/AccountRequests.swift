/// `POST /v1/registrations`.
public struct RegistrationRequest: Codable, Sendable, Equatable {
    public var email: String
    public var password: String
    public var termsAccepted: Bool
    public var nickname: String?

    public init(email: String, password: String, termsAccepted: Bool, nickname: String? = nil) {
        self.email = email
        self.password = password
        self.termsAccepted = termsAccepted
        self.nickname = nickname
    }

    enum CodingKeys: String, CodingKey {
        case email, password, nickname
        case termsAccepted = "terms_accepted"
    }
}

/// The 202 answer to `POST /v1/registrations`.
public struct RegistrationAccepted: Codable, Sendable, Equatable {
    public var registrationId: String
    /// Seconds the emailed code stays valid.
    public var expiresIn: Int

    public init(registrationId: String, expiresIn: Int) {
        self.registrationId = registrationId
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case registrationId = "registration_id"
        case expiresIn = "expires_in"
    }
}

/// `POST /v1/registrations/{id}/verify`.
public struct VerifyCodeRequest: Codable, Sendable, Equatable {
    public var code: String
    public var device: DeviceInfo?

    public init(code: String, device: DeviceInfo? = nil) {
        self.code = code
        self.device = device
    }
}

/// `PATCH /v1/me`.
public struct UpdateProfileRequest: Codable, Sendable, Equatable {
    public var nickname: String?

    public init(nickname: String?) { self.nickname = nickname }
}

/// `POST /v1/password/forgot`.
public struct ForgotPasswordRequest: Codable, Sendable, Equatable {
    public var email: String

    public init(email: String) { self.email = email }
}

/// `POST /v1/password/reset`.
public struct ResetPasswordRequest: Codable, Sendable, Equatable {
    public var email: String
    public var code: String
    public var newPassword: String
    /// A frozen account with 2FA on recovers only with its TOTP code or a recovery code here (issue 19 §3);
    /// without it the reset answers 403 VERIFICATION_REQUIRED (`method: "totp"`, `field: "second_factor"`),
    /// with a wrong one AUTH_003.
    public var secondFactor: String?

    public init(email: String, code: String, newPassword: String, secondFactor: String? = nil) {
        self.email = email
        self.code = code
        self.newPassword = newPassword
        self.secondFactor = secondFactor
    }

    enum CodingKeys: String, CodingKey {
        case email, code
        case newPassword = "new_password"
        case secondFactor = "second_factor"
    }
}

/// `POST /v1/password/change`.
public struct ChangePasswordRequest: Codable, Sendable, Equatable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}
