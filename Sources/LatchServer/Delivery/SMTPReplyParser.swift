/// Parses reply lines into `SMTPReply` values: a pure parser the channel decoder feeds line by line.
struct SMTPReplyParser {
    private var code: Int?
    private var lines: [String] = []

    enum ParseError: Error, Equatable { case malformedLine }

    /// Takes one line (without its CRLF); returns the reply it completes, or nil while more lines follow.
    mutating func consume(_ line: String) throws -> SMTPReply? {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)),
            (200...599).contains(code)
        else { throw ParseError.malformedLine }
        if let started = self.code, started != code { throw ParseError.malformedLine }
        let separator = bytes.count > 3 ? bytes[3] : UInt8(ascii: " ")
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else { throw ParseError.malformedLine }
        lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
        if separator == UInt8(ascii: "-") {
            self.code = code
            return nil
        }
        let reply = SMTPReply(code: code, lines: lines)
        self.code = nil
        lines = []
        return reply
    }
}
