import FluentKit
import Foundation

/// An account's known devices as the export lists them (`KnownDeviceStore`).
extension KnownDeviceStore {
    /// Every known device of `user` (its stored id, the keyed hash), first seen first.
    func all(of user: UUID, on database: any Database) async throws -> [KnownDevice] {
        try await KnownDevice.query(on: database).filter(\.$userID == user).sort(\.$firstSeenAt).all()
    }
}
