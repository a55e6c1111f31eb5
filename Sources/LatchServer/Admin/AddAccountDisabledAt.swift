import FluentKit

/// Issue 12 §2: the `users.disabled_at` column (NULL: enabled).
struct AddAccountDisabledAt: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema).field("disabled_at", .double).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("disabled_at").update()
    }
}
