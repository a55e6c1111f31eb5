import Foundation

/// A case-insensitive set of commonly used passwords that must not be chosen.
///
/// The shipped list (`Resources/common-passwords.txt`) holds the 2,000 most common passwords that
/// mix letters and digits; matching lower-cases the candidate, so `Password1` is caught by `password1`.
public struct CommonPasswords: Sendable {
    private let entries: Set<String>

    /// A blocklist of the given passwords (compared case-insensitively).
    public init<S: Sequence>(_ passwords: S) where S.Element == String {
        entries = Set(passwords.map { $0.lowercased() })
    }

    /// Whether `password` (in any letter case) is on the list.
    public func contains(_ password: String) -> Bool { entries.contains(password.lowercased()) }

    /// How many passwords the list holds.
    public var count: Int { entries.count }

    /// The list shipped with Latch.
    public static let shipped: CommonPasswords = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            preconditionFailure("LatchCore's resource common-passwords.txt is missing from the bundle")
        }
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        return CommonPasswords(lines.filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }()
}
