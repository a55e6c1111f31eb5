import NIOCore
import ServiceLifecycle
import Synchronization

/// The metrics listener as a service of the serving application: it binds when the application runs and
/// closes at its graceful shutdown, after the API's server (services stop in reverse order), so the metrics
/// stay scrapable while in-flight requests finish. A command that never serves (`latchd admin …`) never
/// binds the metrics port.
final class MetricsListenerService: Service, Sendable {
    private let metrics: LatchMetrics
    private let host: String
    private let port: Int
    private let limits: MetricsListener.Limits
    private let group: any EventLoopGroup
    private let listener = Mutex<MetricsListener?>(nil)

    init(metrics: LatchMetrics, host: String, port: Int, limits: MetricsListener.Limits, group: any EventLoopGroup) {
        self.metrics = metrics
        self.host = host
        self.port = port
        self.limits = limits
        self.group = group
    }

    /// The port the listener is bound to, while it runs.
    var boundPort: Int? { listener.withLock { $0 }?.port }

    func run() async throws {
        let started = try await MetricsListener.start(
            host: host, port: port, metrics: metrics, limits: limits, on: group)
        listener.withLock { $0 = started }
        try? await gracefulShutdown()
        listener.withLock { $0 = nil }
        await started.stop()
    }
}
