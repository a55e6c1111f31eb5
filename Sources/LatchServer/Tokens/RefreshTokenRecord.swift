import FluentKit
import Foundation

/// The hash of one refresh token ever issued for a session, with its place in the rotation,
/// so any replay of an old token is recognised (and revokes the session).
// Fluent model (see User for why @unchecked Sendable).
final class RefreshTokenRecord: Model, @unchecked Sendable {
    static let schema = "refresh_tokens"

    @ID(custom: "token_hash", generatedBy: .user) var id: String?
    @Field(key: "session_id") var sessionID: UUID
    @Field(key: "counter") var counter: Int
    @Field(key: "created_at") var createdAt: Double

    init() {}
}

struct CreateRefreshTokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(RefreshTokenRecord.schema)
            .field("token_hash", .string, .identifier(auto: false))
            .field("session_id", .uuid, .required, .references(Session.schema, .id, onDelete: .cascade))
            .field("counter", .int, .required)
            .field("created_at", .double, .required)
            .create()
        try await database.createIndex(
            "refresh_tokens_session_id", on: RefreshTokenRecord.schema, columns: "session_id")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RefreshTokenRecord.schema).delete()
    }
}
