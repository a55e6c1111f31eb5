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
}
