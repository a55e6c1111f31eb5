import NIOCore

/// What one client, or all of them, may hold of the API listener (issue 41 §3 E-X1): connections open
/// at once in total and per client address, each below the open-file limit with a reserve left for the
/// database, SMTP, outbound HTTPS and files; and how long a request may take to arrive (its head, its
/// body), however steadily it trickles — the idle timeout only counts silence.
///
///     let limits = ConnectionLimits.resolved(config.connections, openFileLimit: OpenFileLimit.current)
///     // openFileLimit 256: 192 in total, 24 per address; 1,048,576: 16,384 and 2,048.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections open at once from all clients; one more is closed as soon as it is accepted.
    public var maximumConnections: Int
    /// Connections open at once from one client address (a trusted proxy's count in the total only).
    public var maximumConnectionsPerAddress: Int
    /// A request's head must be whole this long after its first byte.
    public var headerTimeout: TimeAmount
    /// A request's body must be whole this long after its head.
    public var bodyTimeout: TimeAmount

    public init(
        maximumConnections: Int, maximumConnectionsPerAddress: Int, headerTimeout: TimeAmount,
        bodyTimeout: TimeAmount
    ) {
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
    }

    /// The key a peer's connections count under for the per-address cap: an IPv4 address as it is, an
    /// IPv6 address by its /64 (one subscriber holds a whole /64: single addresses would cost a flood
    /// nothing), as the rate limits count clients; nil (the total only) for a trusted proxy, which carries
    /// many clients, and for a peer that is no IP address.
    public static func clientKey(trusting proxies: TrustedProxies) -> @Sendable (String) -> String? {
        { peer in
            guard let address = IPAddress(peer), !proxies.trusts(address) else { return nil }
            return address.rateLimitKey
        }
    }

    /// The descriptors kept back from connections for `limit`: an eighth of it, at least 64 (the
    /// database pool, SMTP and HTTPS sessions, the metrics listener, log and key files, event loops).
    public static func reserve(forOpenFileLimit limit: Int) -> Int { max(64, limit / 8) }

    /// The default total: the open-file limit minus the reserve, at most 16,384 (each open connection
    /// also costs memory; set `LATCH_MAX_CONNECTIONS` for more), at least 8. No limit known: 16,384.
    public static func defaultMaximum(openFileLimit limit: Int?) -> Int {
        guard let limit else { return 16_384 }
        return min(16_384, max(8, limit - reserve(forOpenFileLimit: limit)))
    }

    /// The most any setting may allow under `limit`: enough left for the smallest reserve (64).
    public static func allowedMaximum(openFileLimit limit: Int?) -> Int {
        guard let limit else { return Int.max }
        return max(8, limit - 64)
    }

    /// The limits in force for `settings` under the open-file limit `openFileLimit` (nil: unknown or
    /// unlimited): unset caps derived (per address: an eighth of the total, at least 4), set ones
    /// lowered to what the limit allows (`latchd serve` refuses to start with those instead).
    public static func resolved(_ settings: ConnectionSettings, openFileLimit: Int?) -> ConnectionLimits {
        let allowed = allowedMaximum(openFileLimit: openFileLimit)
        let total = min(settings.maximumConnections ?? defaultMaximum(openFileLimit: openFileLimit), allowed)
        let perAddress = min(settings.maximumConnectionsPerAddress ?? max(4, total / 8), total)
        return ConnectionLimits(
            maximumConnections: total, maximumConnectionsPerAddress: perAddress,
            headerTimeout: .seconds(Int64(settings.headerTimeoutSeconds)),
            bodyTimeout: .seconds(Int64(settings.bodyTimeoutSeconds)))
    }

    /// Why `settings` cannot be kept under `openFileLimit`: a configuration error naming the variable,
    /// or nil when they can.
    public static func problem(with settings: ConnectionSettings, openFileLimit: Int?) -> ConfigurationError? {
        let allowed = allowedMaximum(openFileLimit: openFileLimit)
        for (name, value) in [
            ("LATCH_MAX_CONNECTIONS", settings.maximumConnections),
            ("LATCH_MAX_CONNECTIONS_PER_ADDRESS", settings.maximumConnectionsPerAddress)
        ] {
            if let value, value > allowed {
                return ConfigurationError(
                    name,
                    "must stay below the open-file limit (\(openFileLimit ?? 0)) less 64 for the database, mail and files: at most \(allowed) (got \(value))"
                )
            }
        }
        return nil
    }
}
