/// How fast a token bucket refills (`perSecond`) and how many tokens it holds at most (`burst`):
/// a client may make `burst` requests at once, then `perSecond` a second.
public struct TokenRate: Sendable, Equatable {
    public var perSecond: Double
    public var burst: Double

    public init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
    }

    /// The same rate and burst multiplied by `factor` (`LATCH_RATE_LIMIT_SCALE`).
    public func scaled(by factor: Double) -> TokenRate {
        TokenRate(perSecond: perSecond * factor, burst: burst * factor)
    }
}
