import FluentKit
import FluentSQL
import LatchCore
import SQLKit

/// Issue 11 §2 (software key fallback): `device_credentials.protection`, where the key's private half
/// lives — `secure_enclave` or `software` as the client said when binding. Rows bound before this
/// migration, and binds that do not say, are `unknown`: nobody recorded it then.
struct AddDeviceCredentialProtection: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(DeviceCredential.schema)
            .field("protection", .string, .required, .sql(.default(DeviceKeyProtection.unknown.rawValue)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DeviceCredential.schema).deleteField("protection").update()
    }
}
