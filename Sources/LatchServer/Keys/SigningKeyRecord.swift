import FluentKit
import Foundation

/// An ES256 signing key, its private half encrypted under `LATCH_SECRET_KEY`.
// Fluent model (see User for why @unchecked Sendable).
final class SigningKeyRecord: Model, @unchecked Sendable {
    static let schema = "signing_keys"

    @ID(custom: "kid", generatedBy: .user) var id: String?
    @Field(key: "sealed_private_key") var sealedPrivateKey: String
    @Field(key: "created_at") var createdAt: Double
    /// 1, 2, 3 …: the highest signs (`AddSigningKeyRotation`).
    @OptionalField(key: "generation") var generation: Int?
    /// When a newer key took over: this one verifies until then (NULL: still the signer).
    @OptionalField(key: "retires_at") var retiresAt: Double?

    init() {}

    init(kid: String, sealedPrivateKey: String, createdAt: Double) {
        self.id = kid
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
    }
}

struct CreateSigningKeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SigningKeyRecord.schema)
            .field("kid", .string, .identifier(auto: false))
            .field("sealed_private_key", .string, .required)
            .field("created_at", .double, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SigningKeyRecord.schema).delete()
    }
}
