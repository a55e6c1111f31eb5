import FluentKit
import Foundation

/// A user's fund password (D2): six digits, bcrypt-hashed like a login password.
// Fluent model (see User for why @unchecked Sendable).
final class FundPassword: Model, @unchecked Sendable {
    static let schema = "fund_passwords"

    @ID(custom: "user_id", generatedBy: .user) var id: UUID?
    @Field(key: "password_hash") var passwordHash: String
    @Field(key: "updated_at") var updatedAt: Double
    /// The session that set it last (issue 28 §2, `AddFactorProvenance`; nil before that or by an operator).
    @OptionalField(key: "session_id") var sessionID: UUID?

    init() {}
}

struct CreateFundPasswords: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(FundPassword.schema)
            .field("user_id", .uuid, .identifier(auto: false), .references(User.schema, .id, onDelete: .cascade))
            .field("password_hash", .string, .required)
            .field("updated_at", .double, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FundPassword.schema).delete()
    }
}
