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
        guard trimmed.count <= 64, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw LatchError.invalid("nickname", ["invalid"])
        }
        return trimmed
    }
}
