import Foundation

/// A user as the API shows it to that user.
public struct UserInfo: Codable, Sendable, Equatable {
    public var id: String
    public var email: String?
    public var emailVerified: Bool
    public var nickname: String?
    public var createdAt: Date
    /// The ways to sign in to this account (`GET /v1/me`; absent in token responses).
    public var identities: [IdentityInfo]?

    public init(
        id: String, email: String?, emailVerified: Bool, nickname: String?, createdAt: Date,
        identities: [IdentityInfo]? = nil
    ) {
        self.id = id
        self.email = email
        self.emailVerified = emailVerified
        self.nickname = nickname
        self.createdAt = createdAt
        self.identities = identities
    }

    enum CodingKeys: String, CodingKey {
        case id, email, nickname, identities
        case emailVerified = "email_verified"
        case createdAt = "created_at"
    }
}
