import Foundation
import LatchCore

/// The WebAuthn user handle of an account: HMAC-SHA256 of its id under the server's secret key, so it
/// is stable, opaque (neither the id nor the email) and needs no storage.
enum PasskeyUserHandle {
    /// The 32-byte handle of `user`.
    static func of(_ user: UUID, secrets: SecretBox) -> [UInt8] {
        bytes(ofHex: secrets.keyedHash(user.uuidString.lowercased(), context: "webauthn-user-handle"))
    }

    /// The bytes of lowercase hex text (as `SecretBox.keyedHash` writes it).
    static func bytes(ofHex text: String) -> [UInt8] {
        let hex = Array(text.utf8)
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(hexDigit(hex[$0]) << 4 | hexDigit(hex[$0 + 1])) }
    }

    private static func hexDigit(_ character: UInt8) -> UInt8 {
        character >= UInt8(ascii: "a") ? character - UInt8(ascii: "a") + 10 : character - UInt8(ascii: "0")
    }
}
