import Foundation
import LatchCore

/// The anti-phishing code (issue 19 §4): 4–20 visible characters the user chooses, shown in a fixed,
/// labelled place of every mail latchd sends to the user's address (`MailTemplates.Mail`), so a mail
/// without it is not from latchd. A mail to an address without an account (a registration code) never
/// shows one.
enum AntiPhishingCode {
    static let lengths = 4...20
    /// The step-up action that sets or removes the code without a recent sign-in.
    static let action = VerificationAction.setAntiPhishingCode

    /// The visible characters a code is made of: no white space, control characters or invisible
    /// formatting characters (zero-width, direction marks and overrides, BOM, soft hyphen, private use).
    /// The OpenAPI document states the same pattern, so the fuzzer and the server agree.
    /// Issue 28 §2: no `.`, `/`, `:`, `@` or `\\` either, so a code cannot be a URL, a host name or an
    /// address a phishing mail would lead with.
    static let pattern =
        #"^[^\s\x00-\x1F\x7F-\x9F\xAD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uE000-\uF8FF\uFFF9-\uFFFB./:@\\]+$"#
    /// The characters that make a code look like a link or an address.
    static let linkCharacters: Set<Character> = [".", "/", ":", "@", "\\"]
    private static let expression = try! NSRegularExpression(pattern: pattern)

    /// `code` when it is 4–20 visible characters (Unicode code points, as JSON Schema counts); else 422
    /// VALIDATION_FAILED `code` (`too_short`, `too_long`, `looks_like_a_link`, `invisible_characters`).
    static func validated(_ code: String) throws -> String {
        let length = code.unicodeScalars.count
        guard length >= lengths.lowerBound else { throw LatchError.invalid("code", ["too_short"]) }
        guard length <= lengths.upperBound else { throw LatchError.invalid("code", ["too_long"]) }
        guard !code.contains(where: linkCharacters.contains) else {
            throw LatchError.invalid("code", ["looks_like_a_link"])
        }
        let whole = NSRange(code.startIndex..., in: code)
        guard expression.firstMatch(in: code, range: whole)?.range == whole else {
            throw LatchError.invalid("code", ["invisible_characters"])
        }
        return code
    }

    /// The code as `GET /v1/me/security` shows it to a session that did not sign in within 10 minutes
    /// (issue 28 §2): its first and last characters, the rest as `•`, so a stolen old token cannot read
    /// the code a phishing mail would need.
    static func masked(_ code: String) -> String {
        let characters = Array(code)
        guard characters.count > 2 else { return String(repeating: "•", count: characters.count) }
        return String(characters[0]) + String(repeating: "•", count: characters.count - 2) + String(characters.last!)
    }
}
