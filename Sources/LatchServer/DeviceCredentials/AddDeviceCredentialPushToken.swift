import FluentKit

/// Issue 43 §2: `device_credentials.push_token`, `push_environment` and `push_token_at`, the APNs device
/// token a phone registered for approval pushes (`PUT /v1/device-credentials/{id}/push-token`). Nullable:
/// keys bound before, and phones that never registered one, get no push.
struct AddDeviceCredentialPushToken: AsyncMigration {
    static let columns: [Database.AddedColumn] = [
        (DeviceCredential.schema, "push_token", .string),
        (DeviceCredential.schema, "push_environment", .string),
        (DeviceCredential.schema, "push_token_at", .double)
    ]

    func prepare(on database: any Database) async throws {
        try await database.addColumns(Self.columns)
    }

    func revert(on database: any Database) async throws {
        try await database.dropColumns(Self.columns)
    }
}
