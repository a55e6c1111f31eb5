import Foundation
import LatchCore

/// The session as the vault keeps it, JSON under the key ``StoredSession/vaultKey``: the tokens, when
/// they stop working (computed from `expires_in` and the client's clock when they arrived, so clock
/// skew between client and server does not matter), and the user.
struct StoredSession: Codable, Sendable, Equatable {
    /// The vault key of the session.
    static let vaultKey = "session"

    var accessToken: String
    var refreshToken: String
    var accessTokenExpiresAt: Date
    var refreshTokenExpiresAt: Date
    var sessionID: String
    var user: UserInfo

    init(tokens: TokenResponse, receivedAt now: Date) {
        accessToken = tokens.accessToken
        refreshToken = tokens.refreshToken
        accessTokenExpiresAt = now.addingTimeInterval(TimeInterval(tokens.expiresIn))
        refreshTokenExpiresAt = now.addingTimeInterval(TimeInterval(tokens.refreshExpiresIn))
        sessionID = tokens.sessionId
        user = tokens.user
    }

    enum CodingKeys: String, CodingKey {
        case user
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case accessTokenExpiresAt = "access_token_expires_at"
        case refreshTokenExpiresAt = "refresh_token_expires_at"
        case sessionID = "session_id"
    }

    func encoded() throws -> Data { try APIJSON.encoder().encode(self) }

    static func decode(_ data: Data) -> StoredSession? { try? APIJSON.decoder().decode(StoredSession.self, from: data) }
}
