import Foundation

/// One message an SMTP sink received, decoded as the tests read it: the envelope, the headers with
/// RFC 2047 encoded words decoded, and every leaf MIME part with its transfer encoding undone. The
/// field names are those of `scripts/test/smtp_sink.py`'s JSON (the aiosmtpd sink), so both sinks
/// give the tests the same value.
struct ReceivedMail: Decodable, Sendable {
    struct Part: Decodable, Sendable {
        let content_type: String
        let charset: String?
        let transfer_encoding: String?
        let content: String
    }
    struct Auth: Decodable, Sendable {
        let mechanism: String
        let login: String
    }
    let mail_from: String
    let rcpt_tos: [String]
    let subject: String
    let from: String
    let to: String
    let date: String
    let message_id: String
    let content_type: String
    let parts: [Part]
    let raw: String
    let tls: Bool
    let auth: Auth?

    /// The content of the first part of MIME type `type`.
    func part(_ type: String) -> String? { parts.first { $0.content_type == type }?.content }
}

extension ReceivedMail {
    /// Decodes `raw` (CRLF lines, dot-stuffing already undone) received with the given envelope.
    init(raw: String, mailFrom: String, recipients: [String], tls: Bool, auth: Auth?) {
        let entity = MIMEEntity(raw)
        self.init(
            mail_from: mailFrom, rcpt_tos: recipients,
            subject: entity.decodedHeader("subject"), from: entity.decodedAddressHeader("from"),
            to: entity.decodedAddressHeader("to"), date: entity.header("date") ?? "None",
            message_id: entity.header("message-id") ?? "None", content_type: entity.contentType,
            parts: entity.leafParts().map {
                Part(
                    content_type: $0.contentType, charset: $0.parameter("charset")?.lowercased(),
                    transfer_encoding: $0.header("content-transfer-encoding"), content: $0.decodedBody())
            },
            raw: raw, tls: tls, auth: auth)
    }
}

/// A MIME entity (a whole message or one part): unfolded headers and the body text.
struct MIMEEntity {
    let headers: [(name: String, value: String)]
    let body: String

    init(_ text: String) {
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n")
        let (head, body) =
            if let split = normalised.range(of: "\n\n") {
                (String(normalised[..<split.lowerBound]), String(normalised[split.upperBound...]))
            } else if normalised.hasPrefix("\n") {
                ("", String(normalised.dropFirst()))
            } else {
                (normalised, "")
            }
        var headers: [(name: String, value: String)] = []
        for line in head.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += String(line) // folded: CRLF removed, whitespace kept
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers.append((name, value))
            }
        }
        self.headers = headers
        self.body = body
    }

    func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// The header's text with encoded words decoded ("None" when absent, as Python prints it).
    func decodedHeader(_ name: String) -> String {
        header(name).map(EncodedWords.decode) ?? "None"
    }

    /// An address header decoded, a quoted display name unquoted: `Name <address>` or `address`.
    func decodedAddressHeader(_ name: String) -> String {
        let decoded = decodedHeader(name)
        guard decoded.hasPrefix("\""), let close = decoded.dropFirst().firstIndex(of: "\"") else { return decoded }
        return String(decoded[decoded.index(after: decoded.startIndex)..<close])
            + decoded[decoded.index(after: close)...]
    }

    /// `type/subtype`, lower-cased; text/plain when absent.
    var contentType: String {
        let value = header("content-type") ?? "text/plain"
        return (value.split(separator: ";").first.map(String.init) ?? value).trimmingCharacters(in: .whitespaces)
            .lowercased()
    }

    /// A parameter of Content-Type (`charset`, `boundary`), unquoted.
    func parameter(_ name: String) -> String? {
        guard let value = header("content-type") else { return nil }
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == name {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// The entity itself when it is not multipart; otherwise the leaf parts of every part, in order.
    func leafParts() -> [MIMEEntity] {
        guard contentType.hasPrefix("multipart/"), let boundary = parameter("boundary") else { return [self] }
        var parts: [String] = []
        var current: [Substring]?
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "--\(boundary)--" {
                if let current { parts.append(current.joined(separator: "\n")) }
                current = nil
                break
            } else if line == "--\(boundary)" {
                if let current { parts.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current?.append(line)
            }
        }
        if let current { parts.append(current.joined(separator: "\n")) }
        return parts.flatMap { MIMEEntity($0).leafParts() }
    }

    /// The body with its transfer encoding undone, as text in its charset (UTF-8 when unknown), CRLF lines.
    func decodedBody() -> String {
        let bytes: Data
        switch header("content-transfer-encoding")?.lowercased() {
        case "base64":
            bytes = Data(base64Encoded: body.filter { !$0.isWhitespace }) ?? Data()
        case "quoted-printable":
            bytes = QuotedPrintable.decode(body)
        default:
            bytes = Data(body.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        }
        let encoding: String.Encoding =
            switch parameter("charset")?.lowercased() {
            case "us-ascii", "ascii": .ascii
            case "iso-8859-1", "latin1": .isoLatin1
            default: .utf8
            }
        return String(data: bytes, encoding: encoding) ?? String(decoding: bytes, as: UTF8.self)
    }
}

/// RFC 2047 encoded words (`=?charset?B?…?=`, `=?charset?Q?…?=`); whitespace between two adjacent
/// encoded words is dropped, as the RFC says.
enum EncodedWords {
    static func decode(_ text: String) -> String {
        let pattern = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/
        var output = ""
        var rest = Substring(text)
        var previousWasWord = false
        while let match = rest.firstMatch(of: pattern) {
            let between = rest[..<match.range.lowerBound]
            if !(previousWasWord && between.allSatisfy(\.isWhitespace)) { output += between }
            let payload = String(match.output.3)
            let bytes: Data =
                match.output.2.uppercased() == "B"
                ? Data(base64Encoded: payload) ?? Data()
                : QuotedPrintable.decode(payload.replacingOccurrences(of: "_", with: " "))
            output += String(decoding: bytes, as: UTF8.self)
            previousWasWord = true
            rest = rest[match.range.upperBound...]
        }
        return output + rest
    }
}

/// Quoted-printable (RFC 2045 §6.7): `=XX` bytes and soft line breaks.
enum QuotedPrintable {
    static func decode(_ text: String) -> Data {
        var bytes: [UInt8] = []
        let source = Array(text.replacingOccurrences(of: "\r\n", with: "\n").utf8)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "="), index + 1 < source.count, source[index + 1] == UInt8(ascii: "\n") {
                index += 2 // soft line break
            } else if byte == UInt8(ascii: "="), index + 2 < source.count,
                let value = UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else if byte == UInt8(ascii: "\n") {
                bytes += [13, 10]
                index += 1
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return Data(bytes)
    }
}
