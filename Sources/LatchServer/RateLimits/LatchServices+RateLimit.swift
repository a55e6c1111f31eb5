extension LatchServices {
    /// Charges `req` to the rate limits of `action` (per client and for all clients); over either, throws
    /// 429 RATE_LIMITED with `retry_after` (and a `Retry-After` header). Call it first, before any bcrypt or
    /// database work. `client` keys the per-client bucket by something other than the address (e.g. a
    /// device id).
    func chargeRateLimit(_ action: RateLimitedAction, for req: LatchRequest, client: String? = nil) throws {
        if let wait = rateLimiter.admit(action, client: client ?? req.rateLimitClientKey, now: clock.epochSeconds) {
            throw LatchError.rateLimited(retryAfter: wait)
        }
    }
}
