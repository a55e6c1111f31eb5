import FluentKit
import Foundation

/// A fresh random challenge a device key must sign: for sign-in (purpose `login`, bound to one
/// credential) or for a step-up verification (bound to the verification). 120 s, single use.
// Fluent model (see User for why @unchecked Sendable).
final class SignatureChallenge: Model, @unchecked Sendable {
    static let schema = "signature_challenges"
    static let lifetime: Double = 120

    @ID(key: .id) var id: UUID?
    /// base64url of 32 random bytes (256 bits).
    @Field(key: "challenge") var challenge: String
    @OptionalField(key: "credential_id") var credentialID: UUID?
    @OptionalField(key: "verification_id") var verificationID: UUID?
    @Field(key: "expires_at") var expiresAt: Double
    @OptionalField(key: "used_at") var usedAt: Double?

    init() {}
}

struct CreateSignatureChallenges: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SignatureChallenge.schema)
            .id()
            .field("challenge", .string, .required)
            .field("credential_id", .uuid)
            .field("verification_id", .uuid)
            .field("expires_at", .double, .required)
            .field("used_at", .double)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SignatureChallenge.schema).delete()
    }
}
