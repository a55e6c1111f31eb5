import Foundation

/// Base64url (RFC 4648 §5), the text form of device public keys and signatures in the API.
///
///     Base64URL.encode([0xfb, 0xff])   // "-_8"  (no padding)
///     Base64URL.decode("-_8=")         // [0xfb, 0xff] — padding is optional
public enum Base64URL {
    /// Base64url of `bytes`, without `=` padding.
    ///
    /// Written over the bytes directly (issue 21): Foundation's base64 followed by two
    /// `replacingOccurrences` was 2 % of a refresh's CPU, which encodes the new refresh token.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        let length = (input.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { output in
            var written = 0
            var index = 0
            while index + 3 <= input.count {
                let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                output[written] = alphabet[Int(group >> 18)]
                output[written + 1] = alphabet[Int(group >> 12 & 0x3f)]
                output[written + 2] = alphabet[Int(group >> 6 & 0x3f)]
                output[written + 3] = alphabet[Int(group & 0x3f)]
                written += 4
                index += 3
            }
            let rest = input.count - index
            if rest > 0 {
                let group = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
                output[written] = alphabet[Int(group >> 18)]
                output[written + 1] = alphabet[Int(group >> 12 & 0x3f)]
                written += 2
                if rest == 2 {
                    output[written] = alphabet[Int(group >> 6 & 0x3f)]
                    written += 1
                }
            }
            return written
        }
    }

    /// RFC 4648 §5's alphabet, indexed by six-bit value.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The bytes of `text`, or `nil` when it is not base64url.
    ///
    /// Accepts text with or without `=` padding (if present, it must be the right amount).
    /// Refuses the standard alphabet's `+` and `/`, whitespace, and impossible lengths.
    public static func decode(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        var padding = 0
        while body.hasSuffix("=") {
            body.removeLast()
            padding += 1
        }
        guard padding == 0 || (padding <= 2 && (body.utf8.count + padding) % 4 == 0) else { return nil }
        guard body.utf8.count % 4 != 1 else { return nil }
        var standard: [UInt8] = []
        standard.reserveCapacity(body.utf8.count + 3)
        for character in body.utf8 {
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(character)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(standard)) else { return nil }
        return Array(data)
    }
}
