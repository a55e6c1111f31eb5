import FluentKit
import SQLKit

/// Issue 30 (the verification policy):
///
/// - `verifications.required_factors`, `.kinds`, `.passed`: how many different kinds must pass, which
///   may count (comma-separated; NULL: any) and which passed so far, so a two-factor verification is
///   one row across its attempts. `.amount`, `.unit`, `.target`: what the emailed code's mail names.
///   `.email_code_id`: the `email_codes` row mailed for this verification (its code is bound to it).
/// - `verification_tokens.methods`, `.amount`, `.unit`: the kinds that passed (comma-separated) and
///   the amount the daily limit adds once the proof is redeemed.
/// - `policy_value_locks`: per user, action and parameter, the SHA-256 of each value seen and until
///   when it is locked (`new_value_lock`); a security reset deletes the locks still running.
struct AddVerificationPolicy: AsyncMigration {
    static let columns: [Database.AddedColumn] = [
        (VerificationRecord.schema, "required_factors", .int), (VerificationRecord.schema, "kinds", .string),
        (VerificationRecord.schema, "passed", .string), (VerificationRecord.schema, "amount", .string),
        (VerificationRecord.schema, "unit", .string), (VerificationRecord.schema, "target", .string),
        (VerificationRecord.schema, "email_code_id", .uuid), (VerificationToken.schema, "methods", .string),
        (VerificationToken.schema, "amount", .string), (VerificationToken.schema, "unit", .string)
    ]

    func prepare(on database: any Database) async throws {
        try await database.addColumns(Self.columns)
        try await database.schema(PolicyValueLocks.schema)
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("action", .string, .required)
            .field("parameter", .string, .required)
            .field("value_hash", .string, .required)
            .field("created_at", .double, .required)
            .field("locked_until", .double, .required)
            .unique(on: "user_id", "action", "parameter", "value_hash")
            .create()
        try await database.createIndex(
            "verification_tokens_spent", on: VerificationToken.schema, columns: "user_id", "action", "redeemed_at")
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "verification_tokens_spent").run()
        try await database.schema(PolicyValueLocks.schema).delete()
        try await database.dropColumns(Self.columns)
    }
}
