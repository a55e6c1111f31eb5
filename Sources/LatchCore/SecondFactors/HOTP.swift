/// HMAC-based one-time passwords (RFC 4226): the counter-driven engine under `TOTP`.
///
///     let hotp = HOTP(secret: Array("12345678901234567890".utf8))
///     hotp.code(counter: 0) // "755224"
public struct HOTP: Sendable {
    /// The shared secret (the key of the HMAC).
    let secret: [UInt8]
    /// How many decimal digits a code has (6 to 8).
    public let digits: Int
    /// The HMAC hash.
    public let algorithm: OTPAlgorithm

    /// A generator for `secret`. `digits` must be 6, 7 or 8 (RFC 4226 §5.3 asks for at least 6;
    /// authenticator apps show at most 8).
    public init(secret: [UInt8], digits: Int = 6, algorithm: OTPAlgorithm = .sha1) {
        precondition((6...8).contains(digits), "HOTP codes have 6 to 8 digits, not \(digits)")
        self.secret = secret
        self.digits = digits
        self.algorithm = algorithm
    }

    /// The code for `counter`, zero-padded to `digits` characters.
    public func code(counter: UInt64) -> String {
        let value = truncatedValue(counter: counter) % Self.powerOfTen(digits)
        let text = String(value)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// Dynamic truncation (RFC 4226 §5.3): 31 bits of the HMAC of the big-endian counter.
    func truncatedValue(counter: UInt64) -> UInt32 {
        let message = (0..<8).reversed().map { UInt8(truncatingIfNeeded: counter >> ($0 * 8)) }
        let mac = algorithm.authenticationCode(for: message, key: secret)
        let offset = Int(mac[mac.count - 1] & 0x0f)
        return (UInt32(mac[offset] & 0x7f) << 24)
            | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
    }

    static func powerOfTen(_ exponent: Int) -> UInt32 {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}
