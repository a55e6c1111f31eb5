import Foundation
import LatchCore

/// The sender, from `LATCH_MAIL_FROM`: `latch@example.com` or `Latch <latch@example.com>`.
public struct MailAddress: Sendable, Equatable {
    /// The display name, if any (may be non-ASCII: it is encoded in the header).
    public let name: String?
    /// The address alone, for the SMTP envelope.
    public let address: String

    /// Parses `raw`; the error names `LATCH_MAIL_FROM`.
    public init(parsing raw: String) throws {
        let text = raw.trimmingCharacters(in: .whitespaces)
        var name: String?
        var candidate = text
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            let display = text[..<open].trimmingCharacters(in: .whitespaces)
            name = display.isEmpty ? nil : display.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            candidate = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        guard let email = EmailAddress(candidate), email.value == candidate.lowercased() else {
            throw ConfigurationError(
                "LATCH_MAIL_FROM", "must be an address such as latch@example.com or Latch <latch@example.com>")
        }
        if let name,
            name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) || name.contains("\"")
        {
            throw ConfigurationError("LATCH_MAIL_FROM", "the display name may not contain quotes or control characters")
        }
        self.name = name
        self.address = candidate
    }

    /// The domain after "@" (for Message-ID and EHLO).
    var domain: String { String(address.split(separator: "@").last ?? "localhost") }
}
