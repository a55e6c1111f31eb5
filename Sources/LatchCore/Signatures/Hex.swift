/// Lower-case hexadecimal: digests in the signed-message contract, stored hashes of tokens and codes
/// (on the refresh hot path, so it writes bytes directly: `String(format:)` per byte cost about 5 % of
/// latchd's CPU there), and the Apple nonce.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The two lower-case hex digits of `byte`.
    static func lowercaseBytes(of byte: UInt8) -> [UInt8] {
        [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
    }

    /// The value of one hex digit (`0`–`9`, `a`–`f`, `A`–`F`), or nil for any other byte.
    public static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `bytes` as lower-case hex, two characters per byte.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
