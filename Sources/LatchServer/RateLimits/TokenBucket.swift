/// One token bucket: `tokens` left as of `updatedAt` (seconds since 1970). A request takes one
/// token; tokens come back at the rate's pace up to its burst.
struct TokenBucket: Sendable {
    private(set) var tokens: Double
    private(set) var updatedAt: Double

    /// A full bucket.
    init(rate: TokenRate, now: Double) {
        tokens = rate.burst
        updatedAt = now
    }

    /// The tokens there are at `now` (a clock that went back refills nothing).
    func available(rate: TokenRate, now: Double) -> Double {
        min(rate.burst, tokens + max(0, now - updatedAt) * rate.perSecond)
    }

    /// Whether the bucket is full again at `now`, i.e. no different from a new one (so it can be forgotten).
    func isIdle(rate: TokenRate, now: Double) -> Bool { available(rate: rate, now: now) >= rate.burst }

    /// Seconds until one token is there (0 when one is there now).
    func wait(rate: TokenRate, now: Double) -> Double {
        let missing = 1 - available(rate: rate, now: now)
        guard missing > 0 else { return 0 }
        return rate.perSecond > 0 ? missing / rate.perSecond : .infinity
    }

    /// Takes one token (the caller checked `wait` is 0).
    mutating func take(rate: TokenRate, now: Double) {
        tokens = available(rate: rate, now: now) - 1
        updatedAt = max(updatedAt, now)
    }

    /// Puts one token back (a refunded request), up to the burst.
    mutating func giveBack(rate: TokenRate, now: Double) {
        tokens = min(rate.burst, available(rate: rate, now: now) + 1)
        updatedAt = max(updatedAt, now)
    }
}
