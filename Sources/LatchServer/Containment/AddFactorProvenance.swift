import FluentKit

/// Issue 28 §2 (`FactorSeasoning`): where each factor's age and adding session are kept, for the factors
/// that had no such columns.
///
/// - `fund_passwords.session_id`: the session that set (or last changed) the fund password; its
///   `updated_at` is its age.
/// - `users.email_added_at`, `users.email_session_id`: when and by which session the account's address
///   was linked (NULL: the address came with the account).
struct AddFactorProvenance: AsyncMigration {
    static let columns: [Database.AddedColumn] = [
        (FundPassword.schema, "session_id", .uuid), (User.schema, "email_added_at", .double),
        (User.schema, "email_session_id", .uuid)
    ]

    func prepare(on database: any Database) async throws {
        try await database.addColumns(Self.columns)
    }

    func revert(on database: any Database) async throws {
        try await database.dropColumns(Self.columns)
    }
}
