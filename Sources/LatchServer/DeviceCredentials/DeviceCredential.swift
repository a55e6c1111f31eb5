import Fluent
import Foundation
import LatchCore

/// A device key bound to a user (B5): a P-256 public key whose private half only biometrics unlock.
// Fluent model (see User for why @unchecked Sendable).
final class DeviceCredential: Model, @unchecked Sendable {
    static let schema = "device_credentials"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    /// base64url of the 65-byte X9.63 uncompressed point.
    @Field(key: "public_key") var publicKey: String
    @OptionalField(key: "device_name") var deviceName: String?
    @OptionalField(key: "biometry") var biometry: String?
    @Field(key: "created_at") var createdAt: Double
    @OptionalField(key: "last_used_at") var lastUsedAt: Double?
    /// The session that bound the key (see `AddRecoveryHardeningColumns`): a password change keeps
    /// only the keys of the changing device.
    @OptionalField(key: "session_id") var sessionID: UUID?
    /// Where the private key lives (`DeviceKeyProtection` raw value; see `AddDeviceCredentialProtection`).
    @Field(key: "protection") var protection: String

    init() {}
}

struct CreateDeviceCredentials: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(DeviceCredential.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("public_key", .string, .required)
            .field("device_name", .string)
            .field("biometry", .string)
            .field("created_at", .double, .required)
            .field("last_used_at", .double)
            .create()
        try await database.createIndex("device_credentials_user_id", on: DeviceCredential.schema, columns: "user_id")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DeviceCredential.schema).delete()
    }
}
