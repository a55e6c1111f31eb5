extension LatchConfig {
    /// Reads the operator's settings of issue 12 §3: `LATCH_METRICS_PORT` (1–65535; unset: metrics
    /// off), `LATCH_METRICS_HOST` (default `127.0.0.1`), `LATCH_LOG_FORMAT` (`text` | `json`) and
    /// `LATCH_SHUTDOWN_GRACE_SECONDS` (0–3600, default 10) and `LATCH_IDLE_TIMEOUT_SECONDS` (1–3600,
    /// default 90). A bad value names its variable.
    mutating func readOperations(_ value: (String) -> String?) throws {
        if let raw = value("LATCH_METRICS_PORT") {
            metricsPort = try Self.parseInteger("LATCH_METRICS_PORT", raw, default: 0, range: 1...65535)
            if metricsPort == port {
                throw ConfigurationError(
                    "LATCH_METRICS_PORT",
                    "must differ from LATCH_PORT (\(port)): the metrics have a listener of their own")
            }
        }
        if let host = value("LATCH_METRICS_HOST") {
            guard metricsPort != nil else {
                throw ConfigurationError(
                    "LATCH_METRICS_HOST", "needs LATCH_METRICS_PORT (metrics are off without a port)")
            }
            metricsHost = host
        }
        if let raw = value("LATCH_LOG_FORMAT") {
            guard let format = LogFormat(rawValue: raw.lowercased()) else {
                throw ConfigurationError("LATCH_LOG_FORMAT", "must be text or json (got \(raw))")
            }
            logFormat = format
        }
        shutdownGraceSeconds = try Self.parseInteger(
            "LATCH_SHUTDOWN_GRACE_SECONDS", value("LATCH_SHUTDOWN_GRACE_SECONDS"), default: shutdownGraceSeconds,
            range: 0...3600)
        idleTimeoutSeconds = try Self.parseInteger(
            "LATCH_IDLE_TIMEOUT_SECONDS", value("LATCH_IDLE_TIMEOUT_SECONDS"), default: idleTimeoutSeconds,
            range: 1...3600)
    }
}
