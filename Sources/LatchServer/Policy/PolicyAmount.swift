import Foundation

/// An amount as the policy and a verification's parameters carry it (issue 30 §1): a decimal string,
/// never floating point ("100.00", "0.00000001"), exact. At most 20 digits before the point and 18
/// after, so every sum the daily limit adds stays within `Decimal`'s 38 exact digits.
struct PolicyAmount: Comparable, Hashable, Sendable, CustomStringConvertible {
    let value: Decimal

    /// Parses `text`: digits, optionally a point and more digits; nothing else (no sign, exponent,
    /// spaces or grouping). Nil when it is not such an amount.
    init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...20).contains(whole.count), whole.allSatisfy(\.isASCIIDigit) else {
            return nil
        }
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...18).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        self.value = value
    }

    init(exactly value: Decimal) { self.value = value }

    static let zero = PolicyAmount(exactly: 0)

    static func < (lhs: PolicyAmount, rhs: PolicyAmount) -> Bool { lhs.value < rhs.value }

    static func + (lhs: PolicyAmount, rhs: PolicyAmount) -> PolicyAmount {
        PolicyAmount(exactly: lhs.value + rhs.value)
    }

    /// `lhs - rhs`, never below zero.
    static func remaining(of limit: PolicyAmount, after spent: PolicyAmount) -> PolicyAmount {
        spent < limit ? PolicyAmount(exactly: limit.value - spent.value) : .zero
    }

    /// The plain decimal string ("10000", "0.5", "0.00000001"): never an exponent.
    var description: String {
        var value = self.value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 18, .plain)
        return NSDecimalNumber(decimal: rounded).stringValue
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
