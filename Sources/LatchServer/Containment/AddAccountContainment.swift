import FluentKit

/// Issue 19 (account-takeover containment): the columns and tables of the security reset, the freeze,
/// the security hold and the anti-phishing code.
///
/// - `users.frozen_at`, `users.frozen_by` (`owner` | `freeze_link` | `operator`): a frozen account
///   (NULL: not frozen) signs in with no grant until recovered (`AccountFreezing`).
/// - `users.anti_phishing_code`: the code shown in every mail to the user (NULL: none).
/// - `passkeys.session_id`: the session that registered the passkey (NULL for passkeys registered
///   before this migration, which a password change treats as registered elsewhere).
/// - `verification_tokens.session_id`: the session that passed the verification; a token of an
///   ended session is refused.
/// - `security_events.actor`, `security_events.detail`: who acted (`owner`, `freeze_link`,
///   `operator`) and more about the event (a hold's reason, what a reset ended).
/// - `freeze_tokens`: the one-time "this wasn't me" links of security mails (SHA-256 of the token).
/// - `security_holds`: the one running hold of a user (`SecurityHolds`).
struct AddAccountContainment: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.addColumns(Self.columns)
        try await database.schema(FreezeTokens.schema)
            .field("token_hash", .string, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("created_at", .double, .required)
            .field("expires_at", .double, .required)
            .field("used_at", .double)
            .create()
        try await database.createIndex("freeze_tokens_user_id", on: FreezeTokens.schema, columns: "user_id")
        try await database.schema(SecurityHolds.schema)
            .field("user_id", .uuid, .identifier(auto: false), .references(User.schema, .id, onDelete: .cascade))
            .field("reason", .string, .required)
            .field("started_at", .double, .required)
            .field("hold_until", .double, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SecurityHolds.schema).delete()
        try await database.schema(FreezeTokens.schema).delete()
        try await database.dropColumns(Self.columns)
    }

    /// The added columns, one `ALTER TABLE` each (SQLite adds one column per statement).
    private static let columns: [Database.AddedColumn] = [
        (User.schema, "frozen_at", .double),
        (User.schema, "frozen_by", .string),
        (User.schema, "anti_phishing_code", .string),
        (Passkey.schema, "session_id", .uuid),
        (VerificationToken.schema, "session_id", .uuid),
        (SecurityEvent.schema, "actor", .string),
        (SecurityEvent.schema, "detail", .string)
    ]
}
