import FluentKit
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
    /// The App Attest key that vouches for this key (issue 31 §2; see `AddAppAttest`): nil when bound
    /// without App Attest.
    @OptionalField(key: "app_attest_key_id") var appAttestKeyID: String?
    /// base64url of the attested key's X9.63 point, which assertions are checked with.
    @OptionalField(key: "app_attest_public_key") var appAttestPublicKey: String?
    /// The counter of the last assertion (0 after the attestation).
    @OptionalField(key: "app_attest_counter") var appAttestCounter: Int64?
    @OptionalField(key: "app_attest_environment") var appAttestEnvironment: String?
    /// `TEAMID.bundle.id` the key was attested for.
    @OptionalField(key: "app_attest_app_id") var appAttestAppID: String?
    /// base64 of Apple's receipt.
    @OptionalField(key: "app_attest_receipt") var appAttestReceipt: String?
    /// The app that bound the key: attested (the bundle id of `appAttestAppID`) or as it said.
    @OptionalField(key: "app_bundle_id") var appBundleID: String?
    @OptionalField(key: "app_version") var appVersion: String?
    /// The APNs device token (hex) the app registered for approval pushes (issue 43 §2; see
    /// `AddDeviceCredentialPushToken`): nil when none, or once APNs said it is no longer valid.
    @OptionalField(key: "push_token") var pushToken: String?
    /// `production` or `development`: which APNs host the token belongs to.
    @OptionalField(key: "push_environment") var pushEnvironment: String?
    /// When the token was registered (seconds since 1970).
    @OptionalField(key: "push_token_at") var pushTokenAt: Double?

    /// Whether an App Attest attestation vouches for this key.
    var attested: Bool { appAttestPublicKey != nil }

    /// The key as the API lists it (`GET /v1/device-credentials`, the export, the admin view).
    var info: DeviceCredentialInfo {
        DeviceCredentialInfo(
            id: id?.uuidString.lowercased() ?? "", deviceName: deviceName, biometry: biometry,
            createdAt: Date(timeIntervalSince1970: createdAt),
            lastUsedAt: lastUsedAt.map(Date.init(timeIntervalSince1970:)), protection: protection, attested: attested,
            app: appBundleID.map { AppIdentity(bundleId: $0, version: appVersion) })
    }

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
