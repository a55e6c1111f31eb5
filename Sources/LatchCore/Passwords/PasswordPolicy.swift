/// The password rules of C3: at least 8 characters with upper case, lower case and digits
/// (special characters optional), at most 128 characters, and not a commonly used password.
///
/// Server and SDK share this type, so an app can show the same verdict before it sends anything.
///
///     PasswordPolicy.standard.violations(of: "Password1") // [.common]
public struct PasswordPolicy: Sendable {
    /// One broken rule.
    public enum Violation: String, Sendable, Codable, CaseIterable {
        case tooShort = "too_short"
        case tooLong = "too_long"
        case missingUppercase = "missing_uppercase"
        case missingLowercase = "missing_lowercase"
        case missingDigit = "missing_digit"
        case common = "common"
    }

    public let minimumLength: Int
    public let maximumLength: Int
    private let blocklist: CommonPasswords

    public init(minimumLength: Int = 8, maximumLength: Int = 128, blocklist: CommonPasswords = .shipped) {
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.blocklist = blocklist
    }

    /// The policy Latch enforces.
    public static let standard = PasswordPolicy()

    /// Every rule `password` breaks, in a stable order; empty when it is acceptable.
    public func violations(of password: String) -> [Violation] {
        var found: [Violation] = []
        // Counted in code points, as the API document's `minLength`/`maxLength` (JSON Schema) count: a
        // combining mark is a character of its own there, so "Aa0ก ำกำ" is 9 long for both.
        let length = password.unicodeScalars.count
        if length < minimumLength { found.append(.tooShort) }
        if length > maximumLength { found.append(.tooLong) }
        let classes = CharacterClasses(password)
        if !classes.upper { found.append(.missingUppercase) }
        if !classes.lower { found.append(.missingLowercase) }
        if !classes.digit { found.append(.missingDigit) }
        if length <= maximumLength, blocklist.contains(password) { found.append(.common) }
        return found
    }

    /// Whether `password` breaks no rule.
    public func accepts(_ password: String) -> Bool { violations(of: password).isEmpty }
}

/// Which kinds of characters a password contains.
struct CharacterClasses {
    var upper = false
    var lower = false
    var digit = false
    var special = false

    init(_ password: String) {
        for character in password {
            if character.isASCII, character.isWholeNumber {
                // Only 0–9 are digits: "½", "²" or "五" are not what C3 asks for.
                digit = true
            } else if character.isUppercase {
                upper = true
            } else if character.isLowercase {
                lower = true
            } else if character.isLetter {
                // Letters without case (e.g. CJK) count as lower-case letters: they are letters, not symbols.
                lower = true
            } else {
                special = true
            }
        }
    }

    var letter: Bool { upper || lower }
}
