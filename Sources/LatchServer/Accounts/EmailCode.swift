import FluentKit
import Foundation

/// A pending emailed code: a registration waiting for its code, or a password reset.
/// One row per (purpose, email); a resend replaces it.
// Fluent model (see User for why @unchecked Sendable).
final class EmailCode: Model, @unchecked Sendable {
    static let schema = "email_codes"

    /// `linkEmail` rows are keyed by `"{user id}:{email}"` in `email`: a link belongs to one account.
    enum Purpose: String {
        case registration, passwordReset = "password_reset", linkEmail = "link_email"
        /// Removing the account's email (issue 28 §2): a code mailed to that address.
        case removeEmail = "remove_email"
        /// A verification's `email_code` factor (issue 30 §2), keyed by the account's address; the
        /// verification row names the code's row, so the code answers that verification only.
        case verification
    }

    @ID(key: .id) var id: UUID?
    @Field(key: "purpose") var purpose: String
    @Field(key: "email") var email: String
    @Field(key: "code_hash") var codeHash: String
    @Field(key: "expires_at") var expiresAt: Double
    @Field(key: "attempts") var attempts: Int
    @Field(key: "sent_at") var sentAt: Double
    @OptionalField(key: "password_hash") var passwordHash: String?
    @OptionalField(key: "nickname") var nickname: String?

    init() {}
}

struct CreateEmailCodes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(EmailCode.schema)
            .id()
            .field("purpose", .string, .required)
            .field("email", .string, .required)
            .field("code_hash", .string, .required)
            .field("expires_at", .double, .required)
            .field("attempts", .int, .required)
            .field("sent_at", .double, .required)
            .field("password_hash", .string)
            .field("nickname", .string)
            .unique(on: "purpose", "email")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(EmailCode.schema).delete()
    }
}
