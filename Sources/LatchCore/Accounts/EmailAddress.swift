/// A normalised email address: trimmed, lower-cased, and of a plausible `local@domain.tld` shape.
///
///     EmailAddress(" Alice@Example.COM ")?.value // "alice@example.com"
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalised address.
    public let value: String

    /// Normalises `raw`; `nil` when it is not a plausible address (RFC 5321 length limits, one `@`,
    /// a dotted domain of letters, digits and hyphens, no spaces or control characters).
    public init?(_ raw: String) {
        let trimmed = String(
            raw.unicodeScalars.drop(while: { $0.properties.isWhitespace })
                .reversed().drop(while: { $0.properties.isWhitespace }).reversed().map(Character.init))
        // ASCII only, checked before lower-casing: "\u{212A}" (Kelvin sign) must not become "k".
        guard trimmed.allSatisfy(\.isASCII) else { return nil }
        let email = trimmed.lowercased()
        guard email.utf8.count <= 254 else { return nil }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let local = parts[0], domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= 64, !local.hasPrefix("."), !local.hasSuffix("."),
            !local.contains("..")
        else { return nil }
        let localAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+/=?^_`{|}~.-")
        guard local.allSatisfy({ localAllowed.contains($0) }) else { return nil }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return nil }
        let domainAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for label in labels {
            guard !label.isEmpty, label.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-"),
                label.allSatisfy({ domainAllowed.contains($0) })
            else { return nil }
        }
        guard let tld = labels.last, tld.count >= 2, !tld.allSatisfy(\.isNumber) else { return nil }
        self.value = email
    }

    public var description: String { value }
}
