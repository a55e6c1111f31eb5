import Vapor

extension Application {
    private struct ServerWithMetricsKey: StorageKey { typealias Value = ServerWithMetrics }

    /// The API server with the metrics listener beside it, made on first use: when the server
    /// starts, after every route is registered (the HTTP server takes the app's responder, routes
    /// and middleware as they are when it is made).
    func serverWithMetrics(host: String, port: Int, limits: MetricsListener.Limits) -> ServerWithMetrics {
        if let existing = storage[ServerWithMetricsKey.self] { return existing }
        let made = ServerWithMetrics(
            http: http.server.shared, metrics: latchMetrics, host: host, port: port, limits: limits,
            group: eventLoopGroup)
        storage[ServerWithMetricsKey.self] = made
        return made
    }

    /// The port the metrics listener is bound to while the server runs (nil when metrics are off or
    /// the server is not running); tests bind port 0 and read the real one here.
    public var metricsPort: Int? { (server as? ServerWithMetrics)?.metricsPort }
}
