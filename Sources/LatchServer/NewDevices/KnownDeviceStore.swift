import FluentKit
import Foundation
import SQLKit

/// The statements on `known_devices` (C8, issue 44 §1): an account's devices counted, one looked up and
/// one remembered, always by its stored id (`KnownDevice.storedID`, the keyed hash), never the id sent.
struct KnownDeviceStore: Sendable {
    /// How many devices `user` is known to have signed in from.
    func count(of user: UUID, on database: any Database) async throws -> Int {
        try await KnownDevice.query(on: database).filter(\.$userID == user).count()
    }

    /// Whether `user`'s known devices hold the stored id `storedID`.
    func contains(_ storedID: String, of user: UUID, on database: any Database) async throws -> Bool {
        try await KnownDevice.query(on: database).filter(\.$userID == user).filter(\.$deviceID == storedID).first()
            != nil
    }

    /// Remembers the stored id `storedID` for `user`, first seen at `now` (nothing when it is known).
    func remember(_ storedID: String, of user: UUID, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            INSERT INTO known_devices (id, user_id, device_id, first_seen_at)
            VALUES (\(bind: UUID()), \(bind: user), \(bind: storedID), \(bind: now))
            ON CONFLICT (user_id, device_id) DO NOTHING
            """
        ).run()
    }
}
