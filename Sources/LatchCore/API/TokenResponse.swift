/// The answer to every successful sign-in, registration and refresh.
public struct TokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    /// Seconds the access token lives (7200).
    public var expiresIn: Int
    public var refreshToken: String
    /// Seconds the refresh token lives (30 days).
    public var refreshExpiresIn: Int
    public var sessionId: String
    public var user: UserInfo

    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: Int, refreshToken: String,
        refreshExpiresIn: Int, sessionId: String, user: UserInfo
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.refreshExpiresIn = refreshExpiresIn
        self.sessionId = sessionId
        self.user = user
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case refreshExpiresIn = "refresh_expires_in"
        case sessionId = "session_id"
        case user
    }
}
