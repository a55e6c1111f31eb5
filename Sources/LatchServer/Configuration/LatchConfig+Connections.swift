extension LatchConfig {
    /// Reads the API listener's connection limits (issue 41 §3): `LATCH_MAX_CONNECTIONS` (1–1,000,000),
    /// `LATCH_MAX_CONNECTIONS_PER_ADDRESS` (1–1,000,000, at most `LATCH_MAX_CONNECTIONS`),
    /// `LATCH_HEADER_TIMEOUT_SECONDS` and `LATCH_BODY_TIMEOUT_SECONDS` (1–3600). Unset caps are derived
    /// from the open-file limit when the server starts (`ConnectionLimits`). A bad value names its variable.
    mutating func readConnections(_ value: (String) -> String?) throws {
        if let raw = value("LATCH_MAX_CONNECTIONS") {
            connections.maximumConnections = try Self.parseInteger(
                "LATCH_MAX_CONNECTIONS", raw, default: 0, range: 1...1_000_000)
        }
        if let raw = value("LATCH_MAX_CONNECTIONS_PER_ADDRESS") {
            let perAddress = try Self.parseInteger(
                "LATCH_MAX_CONNECTIONS_PER_ADDRESS", raw, default: 0, range: 1...1_000_000)
            if let total = connections.maximumConnections, perAddress > total {
                throw ConfigurationError(
                    "LATCH_MAX_CONNECTIONS_PER_ADDRESS", "must not exceed LATCH_MAX_CONNECTIONS (\(total))")
            }
            connections.maximumConnectionsPerAddress = perAddress
        }
        connections.headerTimeoutSeconds = try Self.parseInteger(
            "LATCH_HEADER_TIMEOUT_SECONDS", value("LATCH_HEADER_TIMEOUT_SECONDS"),
            default: connections.headerTimeoutSeconds, range: 1...3600)
        connections.bodyTimeoutSeconds = try Self.parseInteger(
            "LATCH_BODY_TIMEOUT_SECONDS", value("LATCH_BODY_TIMEOUT_SECONDS"),
            default: connections.bodyTimeoutSeconds, range: 1...3600)
    }
}

/// What the operator set of the API listener's connection limits (`LatchConfig.connections`); the caps
/// left nil are derived from the open-file limit at start (`ConnectionLimits.resolved`).
public struct ConnectionSettings: Sendable, Equatable {
    /// `LATCH_MAX_CONNECTIONS`: connections open at once, from all clients; nil: derived.
    public var maximumConnections: Int?
    /// `LATCH_MAX_CONNECTIONS_PER_ADDRESS`: connections open at once from one client address (a trusted
    /// proxy's are counted in the total only); nil: derived.
    public var maximumConnectionsPerAddress: Int?
    /// `LATCH_HEADER_TIMEOUT_SECONDS` (default 10): a request's head must have arrived whole this long
    /// after its first byte.
    public var headerTimeoutSeconds = 10
    /// `LATCH_BODY_TIMEOUT_SECONDS` (default 30): a request's body must have arrived whole this long
    /// after its head, however steadily it trickles.
    public var bodyTimeoutSeconds = 30

    public init() {}
}
