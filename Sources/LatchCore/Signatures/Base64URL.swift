import Foundation

/// Base64url (RFC 4648 §5), the text form of device public keys and signatures in the API.
///
///     Base64URL.encode([0xfb, 0xff])   // "-_8"  (no padding)
///     Base64URL.decode("-_8=")         // [0xfb, 0xff] — padding is optional
public enum Base64URL {
    /// Base64url of `bytes`, without `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

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
