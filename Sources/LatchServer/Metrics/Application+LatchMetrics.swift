import Vapor

extension Application {
    private struct LatchMetricsKey: StorageKey { typealias Value = LatchMetrics }

    /// This app's metrics (`LatchMetrics.disabled()` until `configure(_:_:)` sets them).
    var latchMetrics: LatchMetrics {
        get { storage[LatchMetricsKey.self] ?? .disabled() }
        set { storage[LatchMetricsKey.self] = newValue }
    }

    /// The port the metrics listener is bound to while the server runs (nil when metrics are off or
    /// the server is not running); tests bind port 0 and read the real one here.
    public var metricsPort: Int? { (server as? ServerWithMetrics)?.metricsPort }
}

extension Request {
    /// The app's metrics.
    var latchMetrics: LatchMetrics { application.latchMetrics }
}
