/// When a failed event delivery is tried again (issue 42 §3): exponential backoff with jitter from about a
/// second to an hour, for 72 hours from the time it was queued; then it is marked failed (and stays
/// replayable). A pure value.
///
///     let schedule = EventRetrySchedule.standard
///     schedule.next(afterAttempt: 1, queuedAt: 0, now: 1, jitter: 1)     // .retry(at: 2)
///     schedule.next(afterAttempt: 9, queuedAt: 0, now: 300_000, jitter: 1) // .giveUp (past 72 h)
struct EventRetrySchedule: Sendable, Equatable {
    /// The wait after the first failure, before jitter.
    var firstDelay: Double
    /// The longest wait between two attempts.
    var maximumDelay: Double
    /// How long after queueing the event is still tried.
    var window: Double

    static let standard = EventRetrySchedule(firstDelay: 1, maximumDelay: 3_600, window: 72 * 3_600)

    enum Next: Equatable {
        case retry(at: Double)
        case giveUp
    }

    /// What follows failed attempt `attempt` (1-based) at `now`; `jitter` in 0...1 scales the wait between
    /// half and all of the backoff (so receivers that come back are not hit by every stream at once).
    func next(afterAttempt attempt: Int, queuedAt: Double, now: Double, jitter: Double) -> Next {
        let exponent = Double(min(max(attempt - 1, 0), 40))
        let backoff = min(maximumDelay, firstDelay * Double.pow2(exponent))
        let wait = backoff * (0.5 + 0.5 * min(max(jitter, 0), 1))
        let at = now + wait
        return at - queuedAt > window ? .giveUp : .retry(at: at)
    }
}

extension Double {
    fileprivate static func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}
