import FluentKit
import Foundation

/// A WebAuthn challenge (issue 13): 32 random bytes, 5 minutes, used at most once. A registration
/// challenge belongs to a user, a step-up one to a verification, a sign-in one to nobody yet.
// Fluent model (see User for why @unchecked Sendable).
final class PasskeyChallenge: Model, @unchecked Sendable {
    static let schema = "passkey_challenges"
    static let lifetime: Double = 300

    /// What the challenge is for; a challenge of one purpose never answers another.
    enum Purpose: String, Sendable {
        case registration
        case authentication
        case verification
    }

    @ID(key: .id) var id: UUID?
    /// base64url of 32 random bytes.
    @Field(key: "challenge") var challenge: String
    @Field(key: "purpose") var purpose: String
    @OptionalField(key: "user_id") var userID: UUID?
    @OptionalField(key: "verification_id") var verificationID: UUID?
    @Field(key: "expires_at") var expiresAt: Double
    @OptionalField(key: "used_at") var usedAt: Double?
    /// A sign-in challenge whose options named an account by email (issue 20 §7): only `userID`'s
    /// passkeys may answer it, and none when `userID` is nil (the email has no account).
    @OptionalField(key: "names_user") var namesUser: Bool?

    init() {}
}

struct CreatePasskeyChallenges: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PasskeyChallenge.schema)
            .id()
            .field("challenge", .string, .required)
            .field("purpose", .string, .required)
            .field("user_id", .uuid)
            .field("verification_id", .uuid)
            .field("expires_at", .double, .required)
            .field("used_at", .double)
            .create()
        try await database.createIndex(
            "passkey_challenges_expires_at", on: PasskeyChallenge.schema, columns: "expires_at")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PasskeyChallenge.schema).delete()
    }
}

/// Issue 20 §7: `passkey_challenges.names_user`, set when sign-in options named an account.
struct AddPasskeyChallengeNamedUser: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PasskeyChallenge.schema).field("names_user", .bool).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PasskeyChallenge.schema).deleteField("names_user").update()
    }
}
