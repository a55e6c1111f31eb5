import Foundation

/// Text someone else chose (a device name or model, a nickname, a client-reported address) made fit
/// to stand in a security mail: look-alike letters folded (NFKC: `𝐀pple` is `Apple`, full-width is
/// ASCII), control and format characters removed (bidi overrides and isolates U+202A–202E,
/// U+2066–2069, marks, zero-width spaces and joiners, tag characters), invisible fillers and private
/// or unassigned code points dropped, line breaks and odd spaces turned into one plain space, stacks
/// of combining marks cut to two, and the result cut to 64 characters (with `…`).
/// HTML escaping stays the job of `MailHTML`.
///
///     MailDisplayText.cleaned("iPhone\u{202E}gpj.exe")  // "iPhonegpj.exe"
///     MailDisplayText.cleaned("\u{200B} ")              // nil: nothing visible
enum MailDisplayText {
    /// At most this many characters (grapheme clusters) are shown.
    static let maximumLength = 64
    /// At most this many combining marks are kept on one letter.
    static let maximumCombiningMarks = 2

    /// The cleaned text, or nil when nothing visible is left.
    static func cleaned(_ raw: String?) -> String? {
        guard let raw else { return nil }
        // Long input is cut before the work below (each character is at most a few scalars after NFKC).
        let bounded = String(raw.unicodeScalars.prefix(maximumLength * 16))
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        var marksInARow = 0
        for scalar in bounded.precomposedStringWithCompatibilityMapping.unicodeScalars {
            switch Self.treatment(of: scalar) {
            case .drop:
                continue
            case .space:
                pendingSpace = !scalars.isEmpty
                marksInARow = 0
            case .combiningMark:
                marksInARow += 1
                guard marksInARow <= maximumCombiningMarks, !scalars.isEmpty else { continue }
                scalars.append(scalar)
            case .keep:
                if pendingSpace { scalars.append(" ") }
                pendingSpace = false
                marksInARow = 0
                scalars.append(scalar)
            }
        }
        let text = String(scalars)
        guard !text.isEmpty else { return nil }
        guard text.count > maximumLength else { return text }
        let cut = String(text.prefix(maximumLength - 1)).trimmingCharacters(in: .whitespaces)
        return cut + "…"
    }

    private enum Treatment { case keep, drop, space, combiningMark }

    /// Invisible letters that render as nothing (Hangul fillers, the combining grapheme joiner).
    private static let invisibleLetters: Set<UInt32> = [0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800]

    private static func treatment(of scalar: Unicode.Scalar) -> Treatment {
        if invisibleLetters.contains(scalar.value) { return .drop }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned:
            // Cc (CR, LF, ESC …), Cf (bidi controls, zero-width characters, soft hyphen, tags), and the rest.
            return scalar.properties.isWhitespace ? .space : .drop
        case .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return .space
        case .nonspacingMark, .enclosingMark:
            return .combiningMark
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .spacingMark,
            .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation, .dashPunctuation, .openPunctuation,
            .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol,
            .currencySymbol, .modifierSymbol, .otherSymbol:
            return .keep
        @unknown default:
            return .drop
        }
    }
}
