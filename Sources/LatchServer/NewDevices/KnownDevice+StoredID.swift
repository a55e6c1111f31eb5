import Foundation

extension KnownDevice {
    /// What `known_devices.device_id` holds for a device id the client sent (issue 20 §4): a keyed hash
    /// (HMAC-SHA256 under `LATCH_SECRET_KEY`, bound to the account), never the id itself. A sign-in
    /// still matches by sending the id; a copy of the table or an export gives nobody an id that skips
    /// the new-device check.
    static func storedID(of deviceID: String, user: UUID, secrets: SecretBox) -> String {
        secrets.keyedHash(deviceID, context: "known_device:\(user.uuidString.lowercased())")
    }
}
