import Foundation

/// The page's visual constants, kept in the model so tests can check them (A9): the 44 × 44 pt
/// touch target and text colours with at least 4.5:1 contrast (WCAG 2.1 AA) in light and dark mode.
public enum VerificationAppearance {
    /// The smallest frame of any button or field (Apple HIG, seed §9).
    public static let minimumTouchTarget = VerificationSize(width: 44, height: 44)
    /// The lowest contrast any text may have against what is behind it (WCAG 2.1 AA, normal text).
    public static let minimumContrastRatio = 4.5
    /// The card's corner radius (seed §2.2: a rounded card).
    public static let cardCornerRadius = 14.0
    /// How dark the full-screen backdrop behind the card is (seed §2.2: translucent dark).
    public static let backdropOpacity = 0.4

    /// Colours on a light card.
    public static let light = VerificationPalette(
        card: VerificationColor(0xFFFFFF), title: VerificationColor(0x1C1C1E), body: VerificationColor(0x55555A),
        warning: VerificationColor(0xB3261E), link: VerificationColor(0x0056B3),
        primaryFill: VerificationColor(0x0056B3),
        primaryLabel: VerificationColor(0xFFFFFF), disabled: VerificationColor(0x6E6E73),
        fieldBackground: VerificationColor(0xF2F2F7), fieldText: VerificationColor(0x1C1C1E))

    /// Colours on a dark card.
    public static let dark = VerificationPalette(
        card: VerificationColor(0x1C1C1E), title: VerificationColor(0xFFFFFF), body: VerificationColor(0xC7C7CC),
        warning: VerificationColor(0xFF8A80), link: VerificationColor(0x5EA8FF),
        primaryFill: VerificationColor(0x0A64D6),
        primaryLabel: VerificationColor(0xFFFFFF), disabled: VerificationColor(0x98989D),
        fieldBackground: VerificationColor(0x2C2C2E), fieldText: VerificationColor(0xFFFFFF))
}

/// The colours of one appearance (light or dark).
public struct VerificationPalette: Sendable, Equatable {
    /// The card behind all text.
    public var card: VerificationColor
    /// The title ("Face ID").
    public var title: VerificationColor
    /// Messages and details.
    public var body: VerificationColor
    /// Messages with the warning tone.
    public var warning: VerificationColor
    /// Secondary and cancel button titles.
    public var link: VerificationColor
    /// The primary button's fill and its title.
    public var primaryFill: VerificationColor
    /// The primary button's title.
    public var primaryLabel: VerificationColor
    /// Titles of disabled buttons (held to 4.5:1 too, though WCAG exempts them).
    public var disabled: VerificationColor
    /// The text field's background and text.
    public var fieldBackground: VerificationColor
    /// The text field's text.
    public var fieldText: VerificationColor

    public init(
        card: VerificationColor, title: VerificationColor, body: VerificationColor, warning: VerificationColor,
        link: VerificationColor, primaryFill: VerificationColor, primaryLabel: VerificationColor,
        disabled: VerificationColor, fieldBackground: VerificationColor, fieldText: VerificationColor
    ) {
        self.card = card
        self.title = title
        self.body = body
        self.warning = warning
        self.link = link
        self.primaryFill = primaryFill
        self.primaryLabel = primaryLabel
        self.disabled = disabled
        self.fieldBackground = fieldBackground
        self.fieldText = fieldText
    }

    /// Every text colour with the colour it is drawn on.
    public var textPairs: [(name: String, foreground: VerificationColor, background: VerificationColor)] {
        [
            ("title", title, card),
            ("body", body, card),
            ("warning", warning, card),
            ("link", link, card),
            ("primary button", primaryLabel, primaryFill),
            ("disabled", disabled, card),
            ("field", fieldText, fieldBackground)
        ]
    }
}

/// An opaque sRGB colour.
public struct VerificationColor: Sendable, Equatable, CustomStringConvertible {
    /// sRGB red, 0…255.
    public var red: UInt8
    /// sRGB green, 0…255.
    public var green: UInt8
    /// sRGB blue, 0…255.
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from `0xRRGGBB`.
    public init(_ hex: UInt32) {
        self.init(red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF))
    }

    /// `#RRGGBB`.
    public var description: String {
        "#" + [red, green, blue].map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
    }

    /// WCAG 2.1 relative luminance: 0 for black, 1 for white.
    public var relativeLuminance: Double {
        func linear(_ component: UInt8) -> Double {
            let value = Double(component) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.1 contrast ratio with `other`, from 1 (none) to 21 (black on white).
    public func contrastRatio(with other: VerificationColor) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
