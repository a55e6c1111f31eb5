/// How often and when a failed delivery is tried again: exponential backoff, bounded.
///
///     RetryPolicy.standard.delay(afterFailedAttempt: 1) // 5 s, then 10, 20, 40, 80, 160; after the 7th: nil
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first one included.
    public var attempts: Int
    public var firstDelay: Duration
    public var maximumDelay: Duration

    public init(attempts: Int, firstDelay: Duration, maximumDelay: Duration) {
        self.attempts = attempts
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
    }

    /// Seven attempts over about five minutes.
    public static let standard = RetryPolicy(attempts: 7, firstDelay: .seconds(5), maximumDelay: .seconds(300))

    /// The wait before the next attempt after attempt `attempt` (1-based) failed, or nil to give up.
    public func delay(afterFailedAttempt attempt: Int) -> Duration? {
        guard attempt < attempts else { return nil }
        var delay = firstDelay
        for _ in 1..<max(attempt, 1) where delay < maximumDelay { delay *= 2 }
        return min(delay, maximumDelay)
    }
}
