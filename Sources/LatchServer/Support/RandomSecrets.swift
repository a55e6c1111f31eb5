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
        var random = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &random) { bytes in
            bytes[6] = bytes[6] & 0x0F | 0x40 // version 4
            bytes[8] = bytes[8] & 0x3F | 0x80 // RFC 9562's variant
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }
}
