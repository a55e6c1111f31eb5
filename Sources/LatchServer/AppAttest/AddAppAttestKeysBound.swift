import FluentKit
import SQLKit

/// Issue 41 §2: `app_attest_keys_bound`, every App Attest key id that ever vouched for a device key (and
/// when), kept after the key is unbound, so one App Attest key binds only once. Filled from the keys bound
/// before it (the first bind of each key id; an id two keys already share stays with both until unbound).
struct AddAppAttestKeysBound: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AppAttestStore.boundKeysTable)
            .field("key_id", .string, .required)
            .field("bound_at", .double, .required)
            .unique(on: "key_id")
            .create()
        try await database.sql.raw(
            """
            INSERT INTO app_attest_keys_bound (key_id, bound_at)
            SELECT app_attest_key_id, MIN(created_at) FROM device_credentials
            WHERE app_attest_key_id IS NOT NULL GROUP BY app_attest_key_id
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AppAttestStore.boundKeysTable).delete()
    }
}
