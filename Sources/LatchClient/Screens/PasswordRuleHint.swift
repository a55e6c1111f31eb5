import LatchCore

/// One line of the password requirements under the password field (seed §8.2 密码要求), ticked as
/// the user types. The verdicts come from `PasswordPolicy` (the server's own rules), not from a copy.
public struct PasswordRuleHint: Sendable, Equatable, Identifiable {
    /// A requirement.
    public enum Rule: String, Sendable, Equatable, CaseIterable {
        /// "最少 8 位" / "At least 8 characters".
        case minimumLength
        /// "包含大小写字母" / "Upper- and lower-case letters".
        case upperAndLowerCase
        /// "包含数字" / "At least one digit".
        case digit
        /// "可选特殊字符" / "Special characters (optional)": advice, never required.
        case specialCharacter
        /// "最多 128 位" / "At most 128 characters": listed only when broken.
        case maximumLength
        /// "不能使用常见密码" / "Not a commonly used password": listed only when broken.
        case notCommon
    }

    /// Whether the typed password meets it.
    public enum Status: String, Sendable, Equatable, CaseIterable {
        case met
        case unmet
        /// Not a requirement (special characters).
        case optional
    }

    public var rule: Rule
    public var status: Status
    /// The hint's text, e.g. "最少 8 位" / "At least 8 characters".
    public var text: String

    public var id: Rule { rule }

    public init(rule: Rule, status: Status, text: String) {
        self.rule = rule
        self.status = status
        self.text = text
    }

    /// The hints for `password` under `policy`: the four of the seed always, the length cap and the
    /// common-password rule only when broken.
    public static func hints(for password: String, policy: PasswordPolicy, strings: RegistrationStrings)
        -> [PasswordRuleHint]
    {
        let broken = Set(policy.violations(of: password))
        func hint(_ rule: Rule, _ status: Status) -> PasswordRuleHint {
            PasswordRuleHint(rule: rule, status: status, text: strings.rule(rule))
        }
        func status(unless violations: PasswordPolicy.Violation...) -> Status {
            violations.contains(where: broken.contains) ? .unmet : .met
        }
        var hints = [
            hint(.minimumLength, status(unless: .tooShort)),
            hint(.upperAndLowerCase, status(unless: .missingUppercase, .missingLowercase)),
            hint(.digit, status(unless: .missingDigit)),
            hint(.specialCharacter, .optional)
        ]
        if broken.contains(.tooLong) { hints.append(hint(.maximumLength, .unmet)) }
        if broken.contains(.common) { hints.append(hint(.notCommon, .unmet)) }
        return hints
    }
}
