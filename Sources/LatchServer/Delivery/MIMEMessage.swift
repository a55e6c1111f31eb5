import Foundation

/// A mail as RFC 5322 text: UTF-8 headers as RFC 2047 encoded words, a `multipart/alternative`
/// body with a text/plain and a text/html part, each in base64 (so any line length and character
/// travels through any server).
struct MIMEMessage: Sendable {
    var from: MailAddress
    var to: String
    var subject: String
    var text: String
    var html: String
    var date: Date
    /// A unique id; the Message-ID header is `<id@domain-of-from>`.
    var id: String = UUID().uuidString.lowercased()

    /// The whole message, CRLF line ends.
    func rendered() -> String {
        let boundary = "=_latch_\(id.replacingOccurrences(of: "-", with: ""))"
        let fromHeader = from.name.map { "\(Self.encodedPhrase($0)) <\(from.address)>" } ?? from.address
        var lines = [
            "From: \(fromHeader)",
            "To: \(to)",
            "Subject: \(Self.encodedHeader(subject))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(id)@\(from.domain)>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "This is a message in MIME format."
        ]
        for (type, content) in [("text/plain", text), ("text/html", html)] {
            lines += [
                "--\(boundary)",
                "Content-Type: \(type); charset=utf-8",
                "Content-Transfer-Encoding: base64",
                ""
            ]
            lines += Self.base64Lines(content)
        }
        lines.append("--\(boundary)--")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `value` as is when it is short printable ASCII, otherwise as UTF-8 "B" encoded words of at
    /// most 75 characters each, folded onto continuation lines (RFC 2047 §2, §5).
    static func encodedHeader(_ value: String) -> String {
        let plain = value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        if plain && value.utf8.count <= 70 && !value.contains("=?") { return value }
        var words: [String] = []
        var chunk = ""
        for character in value {
            // 45 bytes of UTF-8 make 60 base64 characters: with "=?UTF-8?B?" and "?=", 72 ≤ 75.
            if chunk.utf8.count + character.utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    /// A display name: quoted ASCII, or encoded words when it has other characters.
    static func encodedPhrase(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }
        return plain ? "\"\(name)\"" : encodedHeader(name)
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }

    /// `text` with CRLF line ends, in base64 lines of 76 characters.
    static func base64Lines(_ text: String) -> [String] {
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        let encoded = Data(normalised.utf8).base64EncodedString()
        var lines: [String] = []
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[index..<end]))
            index = end
        }
        return lines
    }
}
