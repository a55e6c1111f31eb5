import FluentKit
import Foundation
import SQLKit

/// Issue 20 §4: replaces the device ids stored in `known_devices` by their keyed hashes
/// (`KnownDevice.storedID`). Runs once, like every migration; rows written after it are hashed already.
struct HashKnownDeviceIDs: AsyncMigration {
    let secrets: SecretBox

    func prepare(on database: any Database) async throws {
        try await database.tracedTransaction { database in
            let rows = try await database.sql.raw("SELECT id, user_id, device_id FROM known_devices").all()
            for row in rows {
                let id = try row.decode(column: "id", as: UUID.self)
                let user = try row.decode(column: "user_id", as: UUID.self)
                let deviceID = try row.decode(column: "device_id", as: String.self)
                let stored = KnownDevice.storedID(of: deviceID, user: user, secrets: secrets)
                try await database.sql.raw(
                    "UPDATE known_devices SET device_id = \(bind: stored) WHERE id = \(bind: id)"
                )
                .run()
            }
        }
    }

    /// The ids cannot come back from their hashes: reverting forgets every known device (each next
    /// sign-in is screened as new, the safe side).
    func revert(on database: any Database) async throws {
        try await database.sql.raw("DELETE FROM known_devices").run()
    }
}
