import FluentKit

/// Issue 28 §2 (containment by construction):
///
/// - `users.previous_email`: the address removed from the account last (NULL: none). When another
///   address is added, the previous one hears of it too, so an email swap is never silent. Account
///   deletion erases it with the other personal data.
/// - `users.registering_session_id`: the session that registered the account (NULL for accounts made
///   before this migration). Its additions on an account younger than the hold start no hold (a new user
///   setting up); every other session's do.
/// - `totp_credentials.session_id`, `identities.session_id`: the session that enrolled the TOTP or linked
///   the identity (NULL: before this migration, or made with the account). The password reset by email
///   ends those another session added within the hold window (`SecurityReset.endPlanted`).
struct AddContainmentByConstruction: AsyncMigration {
    static let columns: [Database.AddedColumn] = [
        (User.schema, "previous_email", .string), (User.schema, "registering_session_id", .uuid),
        (TOTPCredential.schema, "session_id", .uuid), (Identity.schema, "session_id", .uuid)
    ]

    func prepare(on database: any Database) async throws {
        try await database.addColumns(Self.columns)
    }

    func revert(on database: any Database) async throws {
        try await database.dropColumns(Self.columns)
    }
}
