import FluentKit
import Foundation
import LatchCore

/// A way to sign in that is not the account's email and password: an Apple account (`sub`), a
/// WeChat user (`unionid`, else `openid`) or a phone number (E.164). One per provider per account;
/// one account per (provider, subject).
// Fluent model (see User for why @unchecked Sendable).
final class Identity: Model, @unchecked Sendable {
    static let schema = "identities"

    /// The providers an identity row can hold (`email` lives in the users table).
    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "provider") var provider: String
    /// The provider's stable id of the person.
    @Field(key: "subject") var subject: String
    /// Apple's email for the account (possibly a private-relay address), as Apple sent it.
    @OptionalField(key: "email") var email: String?
    @Field(key: "created_at") var createdAt: Double
    /// Apple only: Apple's refresh token, sealed with `LATCH_SECRET_KEY` (see `AddAccountLifecycleColumns`).
    @OptionalField(key: "apple_refresh_token") var appleRefreshToken: String?
    /// Apple only: the client id the refresh token was issued to.
    @OptionalField(key: "apple_client_id") var appleClientID: String?

    init() {}

    init(userID: UUID, provider: SignInProvider, subject: String, email: String?, createdAt: Double) {
        self.id = UUID()
        self.userID = userID
        self.provider = provider.rawValue
        self.subject = subject
        self.email = email
        self.createdAt = createdAt
    }

    var info: IdentityInfo {
        let identifier: String? =
            switch SignInProvider(rawValue: provider) {
            case .phone: subject
            case .apple: email
            case .wechat, .email, nil: nil
            }
        return IdentityInfo(
            provider: provider, identifier: identifier, linkedAt: Date(timeIntervalSince1970: createdAt))
    }
}

struct CreateIdentities: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Identity.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("provider", .string, .required)
            .field("subject", .string, .required)
            .field("email", .string)
            .field("created_at", .double, .required)
            .unique(on: "provider", "subject")
            .unique(on: "user_id", "provider")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Identity.schema).delete()
    }
}

extension User {
    /// The account's ways to sign in: its email (when it has one) and its linked identities.
    func identities(on database: any Database) async throws -> [IdentityInfo] {
        let userID = try requireID()
        var list: [IdentityInfo] = []
        if let email {
            list.append(
                IdentityInfo(provider: .email, identifier: email, linkedAt: Date(timeIntervalSince1970: createdAt)))
        }
        let rows = try await IdentityStore.all(of: userID, on: database)
        list.append(contentsOf: rows.map(\.info))
        return list
    }

    /// The user as `GET /v1/me` shows it, identities included.
    func profile(on database: any Database) async throws -> UserInfo {
        var info = self.info
        info.identities = try await identities(on: database)
        return info
    }
}
