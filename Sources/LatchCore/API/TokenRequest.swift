/// The body of `POST /v1/token`: a `grant_type` and that grant's fields.
public struct TokenRequest: Codable, Sendable, Equatable {
    /// The grants `POST /v1/token` knows.
    public enum GrantType: String, Codable, Sendable, CaseIterable {
        case password
        case refreshToken = "refresh_token"
        case deviceSignature = "device_signature"
        case apple
        case wechat
        case smsCode = "sms_code"
        case loginChallenge = "login_challenge"
        case passkey
        /// Issue 43 §1: the web polls an approval the phone decides.
        case approval
    }

    public var grantType: GrantType
    public var email: String?
    public var password: String?
    public var refreshToken: String?
    /// `device_signature`, `login_challenge` and `passkey`: the challenge answered.
    public var challengeId: String?
    /// `device_signature`: base64url DER ECDSA signature of the `latch-v1` login message.
    public var signature: String?
    /// `device_signature`: base64url of an App Attest assertion over the same login message (issue 31 §2).
    public var appAttestAssertion: String?
    /// `login_challenge`: the mailed code (or a TOTP code); `wechat`: the OAuth code; `sms_code`: the texted code.
    public var code: String?
    /// `apple`: the identity token (a JWT) from Sign in with Apple.
    public var identityToken: String?
    /// `apple`: the raw nonce the app put (SHA-256, hex) into the Apple request.
    public var nonce: String?
    /// `apple`: the authorization code Sign in with Apple gave the app (optional). latchd exchanges it
    /// for Apple's refresh token, which lets it revoke the app's Apple authorization when the account is deleted.
    public var authorizationCode: String?
    /// `apple`: the name Apple gave the app on the first sign-in only; kept for a new account.
    public var fullName: String?
    /// `sms_code`: the phone number in E.164 form (`+8613800138000`).
    public var phone: String?
    /// `passkey`: the assertion answering the challenge of `POST /v1/passkeys/authentication/options`.
    public var credential: AuthenticationResponseJSON?
    public var device: DeviceInfo?
    /// `approval`: the approval polled (`POST /v1/approvals`).
    public var approvalId: String?
    /// `approval`: the poll secret `POST /v1/approvals` answered.
    public var pollSecret: String?

    public init(
        grantType: GrantType, email: String? = nil, password: String? = nil, refreshToken: String? = nil,
        challengeId: String? = nil, signature: String? = nil, code: String? = nil, identityToken: String? = nil,
        nonce: String? = nil, fullName: String? = nil, phone: String? = nil,
        credential: AuthenticationResponseJSON? = nil,
        device: DeviceInfo? = nil, authorizationCode: String? = nil, appAttestAssertion: String? = nil,
        approvalId: String? = nil, pollSecret: String? = nil
    ) {
        self.grantType = grantType
        self.email = email
        self.password = password
        self.refreshToken = refreshToken
        self.challengeId = challengeId
        self.signature = signature
        self.appAttestAssertion = appAttestAssertion
        self.code = code
        self.identityToken = identityToken
        self.nonce = nonce
        self.authorizationCode = authorizationCode
        self.fullName = fullName
        self.phone = phone
        self.credential = credential
        self.device = device
        self.approvalId = approvalId
        self.pollSecret = pollSecret
    }

    /// A password grant.
    public static func password(email: String, password: String, device: DeviceInfo? = nil) -> Self {
        .init(grantType: .password, email: email, password: password, device: device)
    }

    /// A refresh-token grant.
    public static func refresh(_ token: String) -> Self { .init(grantType: .refreshToken, refreshToken: token) }

    enum CodingKeys: String, CodingKey {
        case grantType = "grant_type"
        case email, password, device, signature, code, nonce, phone, credential
        case identityToken = "identity_token"
        case authorizationCode = "authorization_code"
        case fullName = "full_name"
        case refreshToken = "refresh_token"
        case approvalId = "approval_id"
        case pollSecret = "poll_secret"
        case challengeId = "challenge_id"
        case appAttestAssertion = "app_attest_assertion"
    }
}
