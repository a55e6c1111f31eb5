import Crypto
import Foundation
import LatchCore

/// Secrets drawn from the system CSPRNG.
enum RandomSecrets {
    /// 256 random bits, base64url (43 characters).
    static func token() -> String { Base64URL.encode(bytes(32)) }

    /// `count` random bytes.
    static func bytes(_ count: Int) -> Data {
        SymmetricKey(size: .init(bitCount: count * 8)).withUnsafeBytes { Data($0) }
    }

    /// A uniformly drawn 6-digit code, leading zeros kept.
    static func sixDigitCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    }

    /// A random (version 4) UUID from the system CSPRNG in two `getrandom` calls. Foundation's `UUID()` on
    /// Linux opens, reads and closes `/dev/urandom` for each one: three system calls on every access token's
    /// `jti` (issue 44 §4).
    static func uuid() -> UUID {
        var generator = SystemRandomNumberGenerator()
        let (high, low) = (generator.next() as UInt64, generator.next() as UInt64)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (8 * index))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40 // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80 // RFC 9562's variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
