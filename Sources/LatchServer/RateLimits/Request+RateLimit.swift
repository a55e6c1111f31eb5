import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// Charges this request to the rate limits of `action` (per client and for all clients); over
    /// either, throws 429 RATE_LIMITED with `retry_after` (and a `Retry-After` header). Call it first,
    /// before any bcrypt or database work.
    func chargeRateLimit(_ action: RateLimitedAction) throws {
        let latch = self.latch
        if let wait = latch.rateLimiter.admit(action, client: rateLimitClientKey, now: latch.clock.epochSeconds) {
            throw LatchError.rateLimited(retryAfter: wait)
        }
    }
}
