import Foundation

/// One way to sign in to an account (C1): `email` (with its password), `apple`, `wechat` or `phone`.
public struct IdentityInfo: Codable, Sendable, Equatable {
    /// `email`, `apple`, `wechat` or `phone`.
    public var provider: String
    /// What the user recognises it by: the address or number; Apple's (possibly private-relay) email; nil for WeChat.
    public var identifier: String?
    public var linkedAt: Date

    public init(provider: String, identifier: String?, linkedAt: Date) {
        self.provider = provider
        self.identifier = identifier
        self.linkedAt = linkedAt
    }

    /// One of the ways this server knows.
    public init(provider: SignInProvider, identifier: String?, linkedAt: Date) {
        self.init(provider: provider.rawValue, identifier: identifier, linkedAt: linkedAt)
    }

    /// `provider` as a ``SignInProvider``; nil for a way this version does not know (the wire stays a
    /// string, so a newer server's way still decodes).
    public var signInProvider: SignInProvider? { SignInProvider(rawValue: provider) }

    enum CodingKeys: String, CodingKey {
        case provider, identifier
        case linkedAt = "linked_at"
    }
}

/// `POST /v1/me/identities`: proof of the identity to link, the same fields its sign-in grant takes.
public struct LinkIdentityRequest: Codable, Sendable, Equatable {
    /// `email`, `apple`, `wechat` or `phone`.
    public var provider: String
    /// `apple`: the identity token.
    public var identityToken: String?
    /// `apple`: the raw nonce.
    public var nonce: String?
    /// `apple`: the authorization code (optional), exchanged for Apple's refresh token so that deleting
    /// the account or unlinking Apple can revoke the app's Apple authorization.
    public var authorizationCode: String?
    /// `wechat`: the OAuth code; `phone`: the texted code; `email`: the mailed code (second call).
    public var code: String?
    /// `phone`: the number in E.164 form.
    public var phone: String?
    /// `email`: the address to add to an account that has none (both calls).
    public var email: String?
    /// `email`: the password the account will sign in with by email (first call).
    public var password: String?
    /// A verification token for action `link_identity`, needed when the session signed in more than 10 minutes ago.
    public var verificationToken: String?

    public init(
        provider: String, identityToken: String? = nil, nonce: String? = nil, code: String? = nil, phone: String? = nil,
        email: String? = nil, password: String? = nil, verificationToken: String? = nil,
        authorizationCode: String? = nil
    ) {
        self.provider = provider
        self.authorizationCode = authorizationCode
        self.identityToken = identityToken
        self.nonce = nonce
        self.code = code
        self.phone = phone
        self.email = email
        self.password = password
        self.verificationToken = verificationToken
    }

    enum CodingKeys: String, CodingKey {
        case provider, nonce, code, phone, email, password
        case identityToken = "identity_token"
        case authorizationCode = "authorization_code"
        case verificationToken = "verification_token"
    }
}

/// `POST /v1/sms/codes`: text a 6-digit sign-in code to `phone` (E.164).
public struct SMSCodeRequest: Codable, Sendable, Equatable {
    public var phone: String

    public init(phone: String) { self.phone = phone }
}

/// The answer of `POST /v1/sms/codes` (202): how long the code lives and when a new one may be asked for.
public struct SMSCodeAccepted: Codable, Sendable, Equatable {
    public var expiresIn: Int
    public var resendAfter: Int

    public init(expiresIn: Int, resendAfter: Int) {
        self.expiresIn = expiresIn
        self.resendAfter = resendAfter
    }

    enum CodingKeys: String, CodingKey {
        case expiresIn = "expires_in"
        case resendAfter = "resend_after"
    }
}

/// The optional body of `DELETE /v1/me/identities/{provider}`.
public struct UnlinkIdentityRequest: Codable, Sendable, Equatable {
    /// A verification token for action `unlink_identity`, needed when the session signed in more than 10 minutes ago.
    public var verificationToken: String?
    /// For `email` (issue 28 §2): the code a first call without one mailed to the address being removed.
    public var code: String?

    public init(verificationToken: String? = nil, code: String? = nil) {
        self.verificationToken = verificationToken
        self.code = code
    }

    enum CodingKeys: String, CodingKey {
        case verificationToken = "verification_token"
        case code
    }
}

/// The answer to the first call of an email link: a code was mailed to the address.
public struct EmailLinkCodeSent: Codable, Sendable, Equatable {
    /// Seconds the code stays valid.
    public var expiresIn: Int

    public init(expiresIn: Int) { self.expiresIn = expiresIn }

    enum CodingKeys: String, CodingKey { case expiresIn = "expires_in" }
}
