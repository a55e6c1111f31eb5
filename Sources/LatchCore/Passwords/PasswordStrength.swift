/// Password strength exactly as C3 defines it, for the meter under the password field.
///
/// - weak: digits only or letters only (and anything shorter than 8 characters)
/// - medium: letters and digits
/// - strong: upper case, lower case and digits
/// - very strong: upper case, lower case, digits and a special character
public enum PasswordStrength: Int, Sendable, Codable, Comparable, CaseIterable {
    case weak = 1
    case medium = 2
    case strong = 3
    case veryStrong = 4

    /// The strength of `password`.
    public init(of password: String) {
        let classes = CharacterClasses(password)
        if password.count < 8 {
            self = .weak
        } else if classes.upper && classes.lower && classes.digit && classes.special {
            self = .veryStrong
        } else if classes.upper && classes.lower && classes.digit {
            self = .strong
        } else if classes.letter && classes.digit {
            self = .medium
        } else {
            self = .weak
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The label the meter shows ("弱" / "Weak", "中等" / "Medium", "强" / "Strong", "很强" / "Very strong").
    public func label(in language: LatchLanguage) -> String {
        switch (self, language) {
        case (.weak, .zhHans): "弱"
        case (.medium, .zhHans): "中等"
        case (.strong, .zhHans): "强"
        case (.veryStrong, .zhHans): "很强"
        case (.weak, .en): "Weak"
        case (.medium, .en): "Medium"
        case (.strong, .en): "Strong"
        case (.veryStrong, .en): "Very strong"
        }
    }
}
