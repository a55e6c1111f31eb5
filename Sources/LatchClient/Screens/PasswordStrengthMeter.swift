import LatchCore

/// The strength meter under the password field, as seed 004 §3.2 draws it: "密码强度: ████░░░░ 中等" /
/// "Password strength: ████░░░░ Medium".
/// Eight segments, two per level of `PasswordStrength` (C3).
public struct PasswordStrengthMeter: Sendable, Equatable {
    /// Segments in the bar.
    public static let segments = 8

    /// The typed password's strength.
    public var strength: PasswordStrength
    /// "密码强度: 中等" / "Password strength: Medium".
    public var text: String

    public init(strength: PasswordStrength, strings: RegistrationStrings) {
        self.strength = strength
        self.text = strings.strength(strength)
    }

    /// Filled segments: 2 weak, 4 medium, 6 strong, 8 very strong.
    public var filledSegments: Int { strength.rawValue * 2 }

    /// The bar as text, e.g. "████░░░░" for medium.
    public var bar: String {
        String(repeating: "█", count: filledSegments) + String(repeating: "░", count: Self.segments - filledSegments)
    }

    /// How full the bar is, 0.25 to 1 (for a drawn `ProgressView`).
    public var fraction: Double { Double(filledSegments) / Double(Self.segments) }
}
