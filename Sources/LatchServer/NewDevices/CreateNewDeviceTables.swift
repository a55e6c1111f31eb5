import FluentKit
import FluentSQL
import SQLKit

/// `known_devices` and `login_challenges` (C8), and the account's "verify unusual sign-ins" setting.
struct CreateNewDeviceTables: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(KnownDevice.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("device_id", .string, .required)
            .field("first_seen_at", .double, .required)
            .unique(on: "user_id", "device_id")
            .create()
        try await database.schema(LoginChallenge.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("method", .string, .required)
            .field("code_hash", .string)
            .field("expires_at", .double, .required)
            .field("attempts", .int, .required)
            .field("used_at", .double)
            .field("device_id", .string)
            .field("device_name", .string)
            .field("device_model", .string)
            .field("platform", .string)
            .create()
        try await database.schema(User.schema)
            .field("verify_unusual_sign_ins", .bool, .required, .sql(.default(true)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("verify_unusual_sign_ins").update()
        try await database.schema(LoginChallenge.schema).delete()
        try await database.schema(KnownDevice.schema).delete()
    }
}
