import Foundation

/// A unit (`USDT`, `BTC`, `USDC.ERC20`) as the policy compares it (issue 41 P1): one normal form for the
/// file's keys, a verification's parameter and the proof's row, so `"usdt"`, `"Usdt"` and `"USDT "` are
/// all USDT, under its tiers and its daily limit. Only ASCII letters, digits, `.`, `_` and `-` make a unit:
/// a look-alike letter from another script (Cyrillic `Ѕ`) is not a unit at all, rather than a new one.
enum PolicyUnit {
    /// The longest unit (in characters) the policy accepts.
    static let maximumLength = 32

    /// `text` without surrounding white space, its letters upper-cased; nil when what remains is not 1–32
    /// of `A–Z a–z 0–9 . _ -`.
    static func normal(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maximumLength).contains(trimmed.utf8.count), trimmed.utf8.allSatisfy(isUnitByte) else {
            return nil
        }
        return trimmed.uppercased()
    }

    private static func isUnitByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
