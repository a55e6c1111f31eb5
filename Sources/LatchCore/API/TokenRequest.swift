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
    }

    public var grantType: GrantType
    public var email: String?
    public var password: String?
    public var refreshToken: String?
    /// `device_signature` and `login_challenge`: the challenge answered.
    public var challengeId: String?
    /// `device_signature`: base64url DER ECDSA signature of the `latch-v1` login message.
    public var signature: String?
    /// `login_challenge`: the mailed code (or a TOTP code).
    public var code: String?
    public var device: DeviceInfo?

    public init(
        grantType: GrantType, email: String? = nil, password: String? = nil, refreshToken: String? = nil,
        challengeId: String? = nil, signature: String? = nil, code: String? = nil, device: DeviceInfo? = nil
    ) {
        self.grantType = grantType
        self.email = email
        self.password = password
        self.refreshToken = refreshToken
        self.challengeId = challengeId
        self.signature = signature
        self.code = code
        self.device = device
    }

    /// A password grant.
    public static func password(email: String, password: String, device: DeviceInfo? = nil) -> Self {
        .init(grantType: .password, email: email, password: password, device: device)
    }

    /// A refresh-token grant.
    public static func refresh(_ token: String) -> Self { .init(grantType: .refreshToken, refreshToken: token) }

    enum CodingKeys: String, CodingKey {
        case grantType = "grant_type"
        case email, password, device, signature, code
        case refreshToken = "refresh_token"
        case challengeId = "challenge_id"
    }
}
