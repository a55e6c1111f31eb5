import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// The client's IP address as latchd sees it: the TCP peer, or behind a trusted proxy
    /// (`LATCH_TRUSTED_PROXIES`) the right-most `X-Forwarded-For` address that is not one
    /// (see `TrustedProxies`). Security events, sessions and mails show this address.
    var clientIP: String? {
        latch.config.trustedProxies.client(
            peer: remoteAddress?.ipAddress, forwardedFor: headers[values: .xForwardedFor])
    }

    /// The key this request's client is counted under by rate limits: its IPv4 address, or the /64
    /// of its IPv6 address; `unknown` when it has none (all such requests share one bucket).
    var rateLimitClientKey: String {
        guard let text = clientIP, let address = IPAddress(text) else { return "unknown" }
        return address.rateLimitKey
    }
}
