import Foundation

/// A wait that ends at a known time: the resend countdown of an emailed or texted code (the server's
/// `resend_after` / `retry_after`) and the lockout countdown to `locked_until`.
///
///     let resend = ScreenCountdown(seconds: 60, from: now)
///     resend.secondsLeft(at: now.addingTimeInterval(0.2))  // 60 (rounded up: never "0 s" while waiting)
///     resend.isOver(at: now.addingTimeInterval(60))          // true
public struct ScreenCountdown: Sendable, Equatable {
    /// When the wait is over.
    public var endsAt: Date

    public init(endsAt: Date) {
        self.endsAt = endsAt
    }

    /// A wait of `seconds` starting at `start`.
    public init(seconds: Int, from start: Date) {
        self.endsAt = start.addingTimeInterval(TimeInterval(max(0, seconds)))
    }

    /// Whole seconds left at `now`, rounded up (0 once over).
    public func secondsLeft(at now: Date) -> Int {
        let left = endsAt.timeIntervalSince(now)
        return left <= 0 ? 0 : Int(left.rounded(.up))
    }

    /// Whether the wait is over at `now`.
    public func isOver(at now: Date) -> Bool {
        secondsLeft(at: now) == 0
    }

    /// "mm:ss" for `seconds` (hours are counted in minutes: "60:00" for an hour's lock).
    public static func minutesAndSeconds(_ seconds: Int) -> String {
        let minutes = seconds / 60, rest = seconds % 60
        return (minutes < 10 ? "0" : "") + "\(minutes):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
