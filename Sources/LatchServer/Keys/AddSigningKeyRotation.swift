import FluentKit
import SQLKit

/// Issue 12 §3, signing-key rotation: `signing_keys.generation` (1, 2, 3 … unique: the highest signs,
/// and two instances rotating at once cannot both add the next one) and `signing_keys.retires_at`
/// (set when a newer key takes over: the key verifies until then, while tokens it signed can still be
/// live; NULL: not superseded yet).
///
/// Keys stored before this migration are numbered by age, oldest first, and none is retiring: they
/// all keep verifying until the next rotation.
struct AddSigningKeyRotation: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per ALTER TABLE: SQLite adds one at a time.
        try await database.schema(SigningKeyRecord.schema).field("generation", .int).update()
        try await database.schema(SigningKeyRecord.schema).field("retires_at", .double).update()
        try await database.sql.raw(
            """
            UPDATE signing_keys SET generation = (
              SELECT COUNT(*) FROM signing_keys AS older
              WHERE older.created_at < signing_keys.created_at
                 OR (older.created_at = signing_keys.created_at AND older.kid <= signing_keys.kid))
            """
        ).run()
        try await database.sql.create(index: "signing_keys_generation").unique().on(SigningKeyRecord.schema)
            .column("generation").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "signing_keys_generation").run()
        try await database.schema(SigningKeyRecord.schema).deleteField("retires_at").update()
        try await database.schema(SigningKeyRecord.schema).deleteField("generation").update()
    }
}
