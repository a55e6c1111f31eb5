import Foundation

/// The base64 spellings found in imported password hashes (issue 45 §2): the standard alphabet, passlib's
/// "adapted base64" (`.` for `+`, no padding) and the URL-safe one, with or without `=` padding.
enum HashBase64 {
    /// The bytes of `text` in any of the spellings above, or nil when it is not base64.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for character in text.unicodeScalars {
            switch character {
            case ".", "-": standard.unicodeScalars.append("+")
            case "_": standard.unicodeScalars.append("/")
            case "=": continue
            default: standard.unicodeScalars.append(character)
            }
        }
        guard standard.utf8.count % 4 != 1, !text.hasPrefix("=") else { return nil }
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    /// `bytes` in the standard alphabet with padding, as Django and the Firebase CLI write them.
    static func standard(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// `bytes` in the standard alphabet without padding, as PHC strings (and passlib's scrypt) write them.
    static func unpadded(_ bytes: [UInt8]) -> String {
        String(standard(bytes).prefix { $0 != "=" })
    }

    /// `bytes` in passlib's adapted base64 (its PBKDF2 hashes): `.` for `+`, no padding.
    static func passlib(_ bytes: [UInt8]) -> String {
        unpadded(bytes).replacing("+", with: ".")
    }
}
