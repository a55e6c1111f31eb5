import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// Charges this request to the rate limits of `action` (per client and for all clients); over
    /// either, throws 429 RATE_LIMITED with `retry_after` (and a `Retry-After` header). Call it first,
    /// before any bcrypt or database work.
    /// `client` keys the per-client bucket by something other than the address (e.g. a device id).
    func chargeRateLimit(_ action: RateLimitedAction, client: String? = nil) throws {
        let latch = self.latch
        if let wait = latch.rateLimiter.admit(
            action, client: client ?? rateLimitClientKey, now: latch.clock.epochSeconds)
        {
            throw LatchError.rateLimited(retryAfter: wait)
        }
    }
}
