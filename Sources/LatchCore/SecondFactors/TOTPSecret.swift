/// Fresh TOTP secrets: 160 random bits, the HMAC-SHA-1 key length RFC 4226 §4 recommends
/// (and what Google Authenticator's own examples use: 32 Base32 characters).
///
///     let secret = TOTPSecret.generate()   // 20 bytes from the system CSPRNG
///     let typed = Base32.encode(secret)    // "JBSWY3DPEHPK3PXP…", for manual entry
public enum TOTPSecret {
    /// Length of a generated secret, in bytes.
    public static let byteCount = 20

    /// A new secret from `SystemRandomNumberGenerator` (the operating system's CSPRNG).
    public static func generate() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// A new secret from `generator`; tests pass a seeded one. Production code must use a
    /// cryptographically secure generator.
    public static func generate(using generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
