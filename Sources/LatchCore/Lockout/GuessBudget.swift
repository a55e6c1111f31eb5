import Foundation

/// How many wrong guesses (or sends) one target may cost in a window, whatever resets the rest:
/// resends, new challenges, new codes and right answers leave the count as it is. Pure policy;
/// the server keeps the count in a database row changed by single atomic statements.
///
/// A window starts with the first charge after the previous one ended; once `limit` charges stand
/// in a window, the target is refused until the window ends.
///
///     GuessBudget.codes.limit          // 10 wrong codes…
///     GuessBudget.codes.window         // …per 24 hours
public struct GuessBudget: Sendable, Equatable {
    /// Charges allowed in one window.
    public let limit: Int
    /// The window's length, in seconds.
    public let window: TimeInterval

    public init(limit: Int, window: TimeInterval) {
        precondition(limit > 0 && window > 0, "a budget allows something for some time")
        self.limit = limit
        self.window = window
    }

    public static let day: TimeInterval = 24 * 3600

    /// Wrong 6-digit codes against one address, number or account (registration, reset, email link,
    /// unusual sign-in, SMS sign-in, TOTP and recovery codes, TOTP activation): 10 a day.
    public static let codes = GuessBudget(limit: 10, window: day)

    /// Codes sent to one address, number or account: 10 a day.
    public static let sends = GuessBudget(limit: 10, window: day)

    /// Wrong fund passwords of one account: 10 a day (on top of D2's 5 in a row → 1 hour).
    public static let fundPasswords = GuessBudget(limit: 10, window: day)

    /// Wrong sign-in passwords of one address: 50 a day (on top of C4's ladder, which alone would
    /// allow about 125 a day, and which a right password resets).
    public static let passwords = GuessBudget(limit: 50, window: day)
}
