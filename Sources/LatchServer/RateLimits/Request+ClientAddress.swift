import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// The key this request's client is counted under by rate limits: its IPv4 address, or the /64
    /// of its IPv6 address; `unknown` when it has none (all such requests share one bucket).
    var rateLimitClientKey: String {
        guard let text = clientIP, let address = IPAddress(text) else { return "unknown" }
        return address.rateLimitKey
    }
}
