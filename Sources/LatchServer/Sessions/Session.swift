import FluentKit
import Foundation
import LatchCore

/// A signed-in device. Its refresh tokens are derived from `sealedSecret` and `counter`
/// (see `RefreshTokenRotation`); `revokedAt` ends it everywhere.
// Fluent model (see User for why @unchecked Sendable).
final class Session: Model, @unchecked Sendable {
    static let schema = "sessions"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "sealed_secret") var sealedSecret: String
    @Field(key: "counter") var counter: Int
    @OptionalField(key: "rotated_at") var rotatedAt: Double?
    @Field(key: "refresh_expires_at") var refreshExpiresAt: Double
    @Field(key: "created_at") var createdAt: Double
    @Field(key: "signed_in_at") var signedInAt: Double
    @Field(key: "last_active_at") var lastActiveAt: Double
    @OptionalField(key: "revoked_at") var revokedAt: Double?
    @OptionalField(key: "device_id") var deviceID: String?
    @OptionalField(key: "device_name") var deviceName: String?
    @OptionalField(key: "device_model") var deviceModel: String?
    @OptionalField(key: "platform") var platform: String?
    @OptionalField(key: "ip") var ip: String?
    /// The thumbprint of the DPoP key the session is bound to (issue 31 §1); nil: a bearer session.
    @OptionalField(key: "dpop_jkt") var dpopJKT: String?

    init() {}

    func info(current: UUID) -> SessionInfo {
        SessionInfo(
            id: id.map(UUIDText.lowercase) ?? "", deviceName: deviceName, deviceModel: deviceModel, platform: platform,
            ip: ip, createdAt: Date(timeIntervalSince1970: createdAt),
            lastActiveAt: Date(timeIntervalSince1970: lastActiveAt), current: id == current, bound: dpopJKT != nil)
    }
}

struct CreateSessions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Session.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("sealed_secret", .string, .required)
            .field("counter", .int, .required)
            .field("rotated_at", .double)
            .field("refresh_expires_at", .double, .required)
            .field("created_at", .double, .required)
            .field("signed_in_at", .double, .required)
            .field("last_active_at", .double, .required)
            .field("revoked_at", .double)
            .field("device_id", .string)
            .field("device_name", .string)
            .field("device_model", .string)
            .field("platform", .string)
            .field("ip", .string)
            .create()
        try await database.createIndex("sessions_user_id", on: Session.schema, columns: "user_id")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Session.schema).delete()
    }
}
