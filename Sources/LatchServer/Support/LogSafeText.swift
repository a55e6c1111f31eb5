/// Text from a request (its path, its `X-Request-Id`) made safe for one log line: every byte outside
/// printable ASCII (CR, LF, ESC and other controls, spaces, non-ASCII) and `%` itself become `%XX`,
/// so nothing a client sends can start a forged log line or drive a terminal; at most `limit` bytes
/// are shown, then `…`.
///
///     LogSafeText.escaped("/v1/x\r\nlevel=info fake")  // "/v1/x%0D%0Alevel=info%20fake"
enum LogSafeText {
    static func escaped(_ text: String, limit: Int = 256) -> String {
        var escaped = ""
        for (index, byte) in text.utf8.enumerated() {
            guard index < limit else { return escaped + "…" }
            if (0x21...0x7E).contains(byte), byte != UInt8(ascii: "%") {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == UInt8(ascii: "%"), Self.startsEscape(text.utf8, at: index) {
                // Already percent-encoded in the request: kept as it came, so `%0A` is not shown as `%250A`.
                escaped.append("%")
            } else {
                escaped.append("%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2))
            }
        }
        return escaped
    }

    /// Whether the `%` at `index` is followed by two hex digits.
    private static func startsEscape(_ bytes: String.UTF8View, at index: Int) -> Bool {
        let following = Array(bytes.dropFirst(index + 1).prefix(2))
        return following.count == 2
            && following.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66)
            }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
