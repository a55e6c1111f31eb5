import FluentKit
import FluentSQL
import SQLKit

/// Issue 23 §1 (seed 004 §6.2 "☑ 新设备登录时通知"): `users.notify_new_devices`, whether a sign-in from a
/// new device is mailed to the owner (on by default, also for every existing account).
struct AddNewDeviceNoticeSetting: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema)
            .field("notify_new_devices", .bool, .required, .sql(.default(true)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("notify_new_devices").update()
    }
}
