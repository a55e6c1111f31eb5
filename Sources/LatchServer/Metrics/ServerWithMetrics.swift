import NIOCore
import Synchronization
import Vapor

/// The API's HTTP server with the metrics listener beside it: they start together (whoever starts
/// the server — `latchd serve` or a test) and stop together, the API server first (it drains its
/// in-flight requests, up to `LATCH_SHUTDOWN_GRACE_SECONDS`), so the metrics stay scrapable during
/// a shutdown. A command that only boots the app (`latchd admin …`) never binds the metrics port,
/// so it cannot collide with a latchd already serving on the same host.
final class ServerWithMetrics: Server, Sendable {
    private let http: HTTPServer
    private let metrics: LatchMetrics
    private let host: String
    private let port: Int
    private let limits: MetricsListener.Limits
    private let group: any EventLoopGroup
    private let listener = Mutex<MetricsListener?>(nil)

    init(
        http: HTTPServer, metrics: LatchMetrics, host: String, port: Int, limits: MetricsListener.Limits,
        group: any EventLoopGroup
    ) {
        self.http = http
        self.metrics = metrics
        self.host = host
        self.port = port
        self.limits = limits
        self.group = group
    }

    /// The port the metrics listener is bound to, while it runs.
    var metricsPort: Int? { listener.withLock { $0 }?.port }

    var onShutdown: EventLoopFuture<Void> { http.onShutdown }

    func start(address: BindAddress?) async throws {
        try await http.start(address: address)
        do {
            let started = try await MetricsListener.start(
                host: host, port: port, metrics: metrics, limits: limits, on: group)
            listener.withLock { $0 = started }
        } catch {
            await http.shutdown()
            throw error
        }
    }

    func shutdown() async {
        await http.shutdown()
        let running = listener.withLock { current in
            defer { current = nil }
            return current
        }
        await running?.stop()
    }

    @available(*, noasync, message: "Use the async start(address:)")
    func start(address: BindAddress?) throws {
        try group.any().makeFutureWithTask { try await self.start(address: address) }.wait()
    }

    @available(*, noasync, message: "Use the async shutdown()")
    func shutdown() {
        try? group.any().makeFutureWithTask { await self.shutdown() }.wait()
    }
}
