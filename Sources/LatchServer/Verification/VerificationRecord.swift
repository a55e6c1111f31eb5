import FluentKit
import Foundation

/// A step-up verification in progress (A5, D3): one user, one action with the digest of its
/// parameters, up to 5 attempts, completed at most once.
// Fluent model (see User for why @unchecked Sendable).
final class VerificationRecord: Model, @unchecked Sendable {
    static let schema = "verifications"
    static let lifetime: Double = 300
    static let maximumAttempts = 5

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "action") var action: String
    @Field(key: "digest") var digest: String
    @Field(key: "attempts") var attempts: Int
    @Field(key: "expires_at") var expiresAt: Double
    @OptionalField(key: "completed_at") var completedAt: Double?
    /// How many different kinds must pass (issue 30; NULL: one).
    @OptionalField(key: "required_factors") var requiredFactors: Int?
    /// The kinds that may count, comma-separated (NULL: any).
    @OptionalField(key: "kinds") var kinds: String?
    /// The kinds that passed so far, comma-separated, in order.
    @OptionalField(key: "passed") var passed: String?
    /// The amount and unit (for the daily limit and the emailed code's mail).
    @OptionalField(key: "amount") var amount: String?
    @OptionalField(key: "unit") var unit: String?
    /// The locked parameter's value, or the `address` parameter, for the emailed code's mail.
    @OptionalField(key: "target") var target: String?
    /// The `email_codes` row mailed for this verification.
    @OptionalField(key: "email_code_id") var emailCodeID: UUID?

    init() {}
}

struct CreateVerifications: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(VerificationRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("action", .string, .required)
            .field("digest", .string, .required)
            .field("attempts", .int, .required)
            .field("expires_at", .double, .required)
            .field("completed_at", .double)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(VerificationRecord.schema).delete()
    }
}

/// The proof a verification produced: single use, 5 minutes, bound to user, action and digest.
/// Stored as the SHA-256 of the token.
// Fluent model (see User for why @unchecked Sendable).
final class VerificationToken: Model, @unchecked Sendable {
    static let schema = "verification_tokens"
    static let lifetime: Double = 300

    @ID(custom: "token_hash", generatedBy: .user) var id: String?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "action") var action: String
    @Field(key: "digest") var digest: String
    @Field(key: "method") var method: String
    @Field(key: "verified_at") var verifiedAt: Double
    @Field(key: "expires_at") var expiresAt: Double
    @OptionalField(key: "redeemed_at") var redeemedAt: Double?
    /// The session that passed the verification (issue 19 §1: a token of an ended session is refused);
    /// nil for a token issued before that was recorded.
    @OptionalField(key: "session_id") var sessionID: UUID?
    /// Every kind that passed, comma-separated, in order (issue 30; NULL: `method` alone).
    @OptionalField(key: "methods") var methods: String?
    /// The amount and unit the daily limit adds once redeemed (issue 30).
    @OptionalField(key: "amount") var amount: String?
    @OptionalField(key: "unit") var unit: String?

    init() {}
}

struct CreateVerificationTokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(VerificationToken.schema)
            .field("token_hash", .string, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("action", .string, .required)
            .field("digest", .string, .required)
            .field("method", .string, .required)
            .field("verified_at", .double, .required)
            .field("expires_at", .double, .required)
            .field("redeemed_at", .double)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(VerificationToken.schema).delete()
    }
}
