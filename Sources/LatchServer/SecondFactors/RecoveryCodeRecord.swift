import FluentKit
import Foundation

/// One single-use recovery code (a TOTP substitute), stored as a keyed hash.
// Fluent model (see User for why @unchecked Sendable).
final class RecoveryCodeRecord: Model, @unchecked Sendable {
    static let schema = "recovery_codes"

    @ID(custom: "code_hash", generatedBy: .user) var id: String?
    @Field(key: "user_id") var userID: UUID
    @OptionalField(key: "used_at") var usedAt: Double?

    init() {}
}

struct CreateRecoveryCodes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(RecoveryCodeRecord.schema)
            .field("code_hash", .string, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("used_at", .double)
            .create()
        try await database.createIndex("recovery_codes_user_id", on: RecoveryCodeRecord.schema, columns: "user_id")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RecoveryCodeRecord.schema).delete()
    }
}
