import FluentKit
import Foundation

/// A user's authenticator-app secret (encrypted), pending until activated with a first code.
/// `lastUsedStep` is the newest accepted time step: a code of that step or an earlier one is a replay.
// Fluent model (see User for why @unchecked Sendable).
final class TOTPCredential: Model, @unchecked Sendable {
    static let schema = "totp_credentials"

    @ID(custom: "user_id", generatedBy: .user) var id: UUID?
    @Field(key: "sealed_secret") var sealedSecret: String
    @Field(key: "active") var active: Bool
    @Field(key: "last_used_step") var lastUsedStep: Int
    @Field(key: "created_at") var createdAt: Double

    init() {}
}

struct CreateTOTPCredentials: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TOTPCredential.schema)
            .field("user_id", .uuid, .identifier(auto: false), .references(User.schema, .id, onDelete: .cascade))
            .field("sealed_secret", .string, .required)
            .field("active", .bool, .required)
            .field("last_used_step", .int, .required)
            .field("created_at", .double, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TOTPCredential.schema).delete()
    }
}
