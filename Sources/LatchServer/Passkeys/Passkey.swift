import FluentKit
import Foundation

/// A WebAuthn credential of a user (issue 13): its public key (COSE), signature counter and the
/// backup flags the authenticator reported.
// Fluent model (see User for why @unchecked Sendable).
final class Passkey: Model, @unchecked Sendable {
    static let schema = "passkeys"
    /// At most this many passkeys per account.
    static let limit = 20

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    /// base64url of the credential id; unique across users.
    @Field(key: "credential_id") var credentialID: String
    /// base64url of the COSE_Key bytes from the attested credential data.
    @Field(key: "public_key") var publicKey: String
    @Field(key: "name") var name: String
    /// Comma-separated, as the registration reported them (`internal,hybrid`).
    @Field(key: "transports") var transports: String
    @Field(key: "sign_count") var signCount: Int64
    @Field(key: "backup_eligible") var backupEligible: Bool
    @Field(key: "backed_up") var backedUp: Bool
    /// `none`, `self` or `unverified`.
    @Field(key: "attestation") var attestation: String
    /// Hex of the AAGUID (zeros when not attested).
    @Field(key: "aaguid") var aaguid: String
    @Field(key: "created_at") var createdAt: Double
    @OptionalField(key: "last_used_at") var lastUsedAt: Double?
    /// The session that registered it (issue 19 §1: a password change ends the other devices'
    /// passkeys); nil for passkeys registered before that was recorded.
    @OptionalField(key: "session_id") var sessionID: UUID?

    init() {}
}

struct CreatePasskeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Passkey.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("credential_id", .string, .required)
            .field("public_key", .string, .required)
            .field("name", .string, .required)
            .field("transports", .string, .required)
            .field("sign_count", .int64, .required)
            .field("backup_eligible", .bool, .required)
            .field("backed_up", .bool, .required)
            .field("attestation", .string, .required)
            .field("aaguid", .string, .required)
            .field("created_at", .double, .required)
            .field("last_used_at", .double)
            .unique(on: "credential_id")
            .create()
        try await database.createIndex("passkeys_user_id", on: Passkey.schema, columns: "user_id")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Passkey.schema).delete()
    }
}
