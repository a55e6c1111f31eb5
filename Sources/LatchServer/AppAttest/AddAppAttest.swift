import FluentKit
import SQLKit

/// Issue 31 §2 (App Attest on device binding):
///
/// - `app_attest_challenges`: single-use challenges (5 minutes) of one user, for one attestation each.
/// - `device_credentials`: the attested App Attest key of a device key (`app_attest_key_id`, its public
///   point `app_attest_public_key`, the last assertion's `app_attest_counter`, `app_attest_environment`, the
///   `TEAMID.bundle.id` it was attested for `app_attest_app_id`,
///   Apple's `app_attest_receipt`), NULL for a key bound without App Attest; and the app that bound it
///   (`app_bundle_id`, `app_version`), as attested or as the app said.
struct AddAppAttest: AsyncMigration {
    static let credentialColumns: [Database.AddedColumn] = [
        (DeviceCredential.schema, "app_attest_key_id", .string),
        (DeviceCredential.schema, "app_attest_public_key", .string),
        (DeviceCredential.schema, "app_attest_counter", .int64),
        (DeviceCredential.schema, "app_attest_environment", .string),
        (DeviceCredential.schema, "app_attest_app_id", .string),
        (DeviceCredential.schema, "app_attest_receipt", .string),
        (DeviceCredential.schema, "app_bundle_id", .string), (DeviceCredential.schema, "app_version", .string)
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(AppAttestStore.challengesTable)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("challenge", .string, .required)
            .field("expires_at", .double, .required)
            .field("used_at", .double)
            .create()
        try await database.createIndex(
            "app_attest_challenges_user_id", on: AppAttestStore.challengesTable, columns: "user_id")
        try await database.addColumns(Self.credentialColumns)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AppAttestStore.challengesTable).delete()
        try await database.dropColumns(Self.credentialColumns)
    }
}
