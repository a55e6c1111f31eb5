import FluentKit

/// Issue 12 §1: the columns of account deletion and Sign in with Apple revocation.
///
/// - `users.deleted_at`: set when the account was deleted; the row stays as a tombstone.
/// - `identities.apple_refresh_token`: Apple's refresh token, sealed with `LATCH_SECRET_KEY` like TOTP secrets.
/// - `identities.apple_client_id`: the client id it was issued to (revocation must name the same one).
struct AddAccountLifecycleColumns: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema)
            .field("deleted_at", .double)
            .update()
        try await database.schema(Identity.schema)
            .field("apple_refresh_token", .string)
            .update()
        try await database.schema(Identity.schema)
            .field("apple_client_id", .string)
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Identity.schema).deleteField("apple_client_id").update()
        try await database.schema(Identity.schema).deleteField("apple_refresh_token").update()
        try await database.schema(User.schema).deleteField("deleted_at").update()
    }
}
