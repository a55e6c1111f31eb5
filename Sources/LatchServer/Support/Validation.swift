import Foundation
import LatchCore

/// Input checks shared by the routes; each failure names the field.
enum Validate {
    static func email(_ raw: String, field: String = "email") throws -> EmailAddress {
        guard let email = EmailAddress(raw) else { throw LatchError.invalid(field, ["invalid_email"]) }
        return email
    }

    static func newPassword(_ password: String, policy: PasswordPolicy, field: String) throws {
        let violations = policy.violations(of: password)
        guard violations.isEmpty else { throw LatchError.invalid(field, violations.map(\.rawValue)) }
    }

    /// A password given to sign in: any non-empty string up to 1,024 characters.
    static func presentedPassword(_ password: String, field: String = "password") throws {
        guard !password.isEmpty, password.count <= 1024 else { throw LatchError.invalid(field, ["invalid"]) }
    }

    static func sixDigitCode(_ code: String, field: String = "code") throws {
        guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw LatchError.invalid(field, ["six_digits"])
        }
    }

    /// A nickname: trimmed, 1–64 characters, no control characters; nil or empty means none.
    static func nickname(_ raw: String?) throws -> String? {
        guard let trimmed = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= 64,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw LatchError.invalid("nickname", ["invalid"])
        }
        return trimmed
    }

    /// A device string (name, model, platform, id) as given, without control characters (PostgreSQL
    /// refuses NUL), trimmed, at most 100 characters; nil when empty.
    static func deviceName(_ raw: String?) -> String? {
        guard let raw else { return nil }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: raw.unicodeScalars.filter { $0.properties.generalCategory != .control })
        let trimmed = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(100))
    }

    /// An action name: 1–64 of a–z, 0–9, `_`, `.`, `-`.
    static func action(_ action: String) throws {
        guard isActionName(action) else { throw LatchError.invalid("action", ["invalid"]) }
    }

    /// An action name: 1–64 of `a-z 0-9 _ . -`.
    static func isActionName(_ action: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_.-")
        return (1...64).contains(action.count) && action.allSatisfy { allowed.contains($0) }
    }

    /// Whether `text` is made only of ASCII letters, digits and the characters of `extra`, and is not empty:
    /// the alphabet of a bundle id (`.` `-`) and of an app version (`.` `+` `-`), issue 31 §2.
    static func isASCIIWord(_ text: String, allowing extra: Set<Character>) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || extra.contains($0)) }
    }

    /// Action parameters: at most 32, keys 1–64 and values up to 1,024 characters.
    static func parameters(_ parameters: [String: String]) throws {
        guard parameters.count <= 32,
            parameters.allSatisfy({ (1...64).contains($0.key.count) && $0.value.count <= 1024 })
        else { throw LatchError.invalid("parameters", ["invalid"]) }
    }
}
