import Foundation

/// One-time recovery codes for when the authenticator app is lost: 10 codes of 10 characters
/// from an alphabet without look-alikes (no `0 o 1 l i`), shown as `xxxxx-xxxxx`.
/// Each code carries about 49.5 bits (10 × log2 31).
///
///     let codes = RecoveryCode.generate()          // ["7kq2m-x9fht", …] — show once, store hashed
///     RecoveryCode.normalize(" 7KQ2M x9fht ")      // "7kq2mx9fht" — compare this form
///
/// Store and compare `normalize(code)`, never the displayed form.
public enum RecoveryCode {
    /// The characters a code is drawn from: digits 2–9 and lower-case letters except `i l o`.
    public static let alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
    /// How many codes `generate()` returns.
    public static let standardCount = 10
    /// Characters per code, not counting the dash.
    public static let length = 10

    private static let symbols = Array(alphabet)

    /// `count` distinct new codes from `SystemRandomNumberGenerator`.
    public static func generate(count: Int = standardCount) -> [String] {
        var generator = SystemRandomNumberGenerator()
        return generate(count: count, using: &generator)
    }

    /// `count` distinct new codes from `generator`; tests pass a seeded one. Production code must
    /// use a cryptographically secure generator.
    public static func generate(count: Int = standardCount, using generator: inout some RandomNumberGenerator)
        -> [String]
    {
        var codes: [String] = []
        var seen: Set<String> = []
        while codes.count < count {
            let characters = (0..<length).map { _ in symbols[Int.random(in: 0..<symbols.count, using: &generator)] }
            let code = String(characters.prefix(length / 2)) + "-" + String(characters.dropFirst(length / 2))
            if seen.insert(code).inserted { codes.append(code) }
        }
        return codes
    }

    /// The comparable form of what a user typed or pasted: compatibility-normalized (so full-width
    /// `ＡＢＣ－１２` from an East Asian keyboard becomes `abc-12`), lower-cased, with whitespace
    /// and dashes removed.
    public static func normalize(_ input: String) -> String {
        let folded = input.precomposedStringWithCompatibilityMapping.lowercased()
        let kept = folded.unicodeScalars.filter { scalar in
            !(scalar.properties.isWhitespace || scalar.properties.generalCategory == .dashPunctuation)
        }
        return String(String.UnicodeScalarView(kept))
    }
}
