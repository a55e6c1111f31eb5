import FluentKit
import FluentSQL
import SQLKit

/// Issue 45 §1: `user_imports` (one row per imported user: its `external_id` in the system it came from,
/// the digest of the line last imported, when) and `users.password_change_required` (a legacy digest was
/// imported: the user is asked to choose a new password).
struct CreateUserImports: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserImportStore.schema)
            .field("user_id", .uuid, .identifier(auto: false), .references("users", "id", onDelete: .cascade))
            .field("external_id", .string)
            .field("digest", .string, .required)
            .field("imported_at", .double, .required)
            .unique(on: "external_id")
            .create()
        try await database.schema("users")
            .field("password_change_required", .bool, .required, .sql(.default(false)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("users").deleteField("password_change_required").update()
        try await database.schema(UserImportStore.schema).delete()
    }
}
