/// Base32 (RFC 4648 §6), the text form of a TOTP secret in an `otpauth://` URI and in apps
/// that ask the user to type the key.
///
///     Base32.encode(Array("foobar".utf8))   // "MZXW6YTBOI"  (upper case, no padding)
///     Base32.decode("mzxw 6ytb oi======")   // the bytes of "foobar"
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Upper-case Base32 of `bytes`, without `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bitCount += 8
            while bitCount >= 5 {
                bitCount -= 5
                output.append(alphabet[Int((buffer >> UInt32(bitCount)) & 0x1f)])
            }
        }
        if bitCount > 0 {
            output.append(alphabet[Int((buffer << UInt32(5 - bitCount)) & 0x1f)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text`, or `nil` when it is not Base32.
    ///
    /// Tolerant of what people and apps produce: lower case, spaces (and tabs or line breaks)
    /// anywhere, and `=` padding at the end. Refuses any other character, `=` before the end,
    /// and lengths no encoder produces (1, 3 or 6 characters past a multiple of 8).
    /// Bits left over after the last whole byte are ignored.
    public static func decode(_ text: String) -> [UInt8]? {
        var symbols: [UInt8] = []
        var paddingSeen = false
        for character in text.utf8 {
            switch character {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "="):
                paddingSeen = true
            default:
                guard !paddingSeen, let value = value(of: character) else { return nil }
                symbols.append(value)
            }
        }
        guard ![1, 3, 6].contains(symbols.count % 8) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(symbols.count * 5 / 8)
        var buffer: UInt32 = 0
        var bitCount = 0
        for symbol in symbols {
            buffer = (buffer << 5) | UInt32(symbol)
            bitCount += 5
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bitCount)))
            }
        }
        return output
    }

    /// The 5-bit value of one Base32 character, either case.
    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): return character - UInt8(ascii: "2") + 26
        default: return nil
        }
    }
}
