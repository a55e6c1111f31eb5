import FluentKit

/// Issue 10 §2: the columns that let a refresh grace answer once and a password change tell the
/// device keys of this device from the others.
///
/// - `sessions.refresh_grace_counter`: the counter whose previous token already used its grace
///   answer (NULL: none yet). A second duplicate within the window is a replay.
/// - `device_credentials.session_id`: the session that bound the key (NULL for keys bound before
///   this migration, which a password change treats as bound elsewhere).
struct AddRecoveryHardeningColumns: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Session.schema)
            .field("refresh_grace_counter", .int)
            .update()
        try await database.schema(DeviceCredential.schema)
            .field("session_id", .uuid)
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DeviceCredential.schema).deleteField("session_id").update()
        try await database.schema(Session.schema).deleteField("refresh_grace_counter").update()
    }
}
