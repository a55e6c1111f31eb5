import Fluent

/// Issue 28 §2: `users.previous_email`, the address removed from the account last (NULL: none). When
/// another address is added, the previous one hears of it too, so an email swap is never silent.
/// Account deletion erases it with the other personal data.
struct AddPreviousEmail: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema).field("previous_email", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("previous_email").update()
    }
}
