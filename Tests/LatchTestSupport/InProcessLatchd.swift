import Foundation
import HTTPTypes
import Hummingbird
import LatchServer
import Logging
import NIOCore
import NIOEmbedded
import ServiceLifecycle
import Synchronization

/// LatchServer inside the test process, served by its Hummingbird application on a free loopback port: the
/// one helper that boots it for the server tests (`TestServer`, `DeliveryTestServer`, an app mounting
/// LatchServer) and the end-to-end tests (`LiveServer`). Tests that need the real binary (kill -9,
/// restarts, `latchd admin`, the CLI) use `LatchdProcess`.
///
/// ```swift
/// let config = LatchConfig(database: .sqlite(path: …), port: 0, issuer: "http://latch.test",
///                          secretKey: Data(repeating: 7, count: 32), bcryptCost: 4, logRequests: false)
/// let server = try await InProcessLatchd.start(config, clock: clock.latchClock) { latch, router in
///     latch.routes(on: router).get("extra") { _ in "a route of the embedding app" }
/// }
/// try await server.stop()
/// ```
public struct InProcessLatchd: Sendable {
    /// The Latch application served (`app.latch`, `app.db`, its metrics and sign-in services).
    public let app: LatchApplication
    /// `http://127.0.0.1:PORT`, to append paths to.
    public let baseURL: String
    private let group: ServiceGroup
    private let running: Task<Void, Never>
    private let responder: RouterResponder<LatchRequestContext>

    /// `baseURL` as a URL.
    public var url: URL { URL(string: baseURL)! }

    public enum StartError: Error { case noPort, noMetricsPort }

    /// The logger of a test's server: notices and worse, on standard error.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "latchd")
        logger.logLevel = .notice
        return logger
    }

    /// Makes the application with `config` and `clock`, installs Latch on a router, runs `addRoutes` (routes
    /// of an app that embeds LatchServer), and serves on 127.0.0.1 on a port the kernel picks (`config.port` is
    /// ignored), running the background work as `latchd serve` does. On any failure the application is shut
    /// down before the error is thrown.
    public static func start(
        _ config: LatchConfig, clock: LatchClock = .system, logger: Logger = defaultLogger,
        addRoutes: (LatchApplication, Router<LatchRequestContext>) throws -> Void = { _, _ in }
    ) async throws -> InProcessLatchd {
        let latch = try await LatchApplication.make(config, clock: clock, logger: logger)
        let router: Router<LatchRequestContext>
        let responder: RouterResponder<LatchRequestContext>
        do {
            router = try latch.makeRouter()
            try addRoutes(latch, router)
            responder = router.buildResponder()
        } catch {
            await latch.shutdown()
            throw error
        }
        let (ports, bound) = AsyncStream<Int?>.makeStream()
        let app = latch.application(router: router, port: 0) { channel in
            bound.yield(channel.localAddress?.port)
            bound.finish()
        }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        let running = Task {
            defer { bound.finish() }
            do { try await group.run() } catch { logger.error("test server stopped: \(error)") }
        }
        var waiting = ports.makeAsyncIterator()
        let port = await waiting.next() ?? nil
        // The metrics listener is a service of its own beside the HTTP server and binds in its own time: the
        // server is started once both listen (a test read `metricsPort` as nil on a loaded CI machine).
        let metricsBound =
            port != nil ? await Self.waitForMetricsListener(of: latch, configured: config.metricsPort != nil) : false
        guard let port, metricsBound else {
            await group.triggerGracefulShutdown()
            await running.value
            await latch.shutdown()
            throw port == nil ? StartError.noPort : StartError.noMetricsPort
        }
        return InProcessLatchd(
            app: latch, baseURL: "http://127.0.0.1:\(port)", group: group, running: running, responder: responder)
    }

    /// Whether `latch`'s metrics listener, when one is `configured`, listens within 60 s.
    private static func waitForMetricsListener(of latch: LatchApplication, configured: Bool) async -> Bool {
        guard configured else { return true }
        for _ in 0..<6_000 {
            if latch.metricsPort != nil { return true }
            do { try await Task.sleep(for: .milliseconds(10)) } catch { return false }
        }
        return false
    }

    /// Stops serving (in-flight requests finish) and shuts the application down (database, queues).
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        await running.value
        await app.shutdown()
    }

    /// Answers a GET of `target` through the router and all of Latch's middleware without a socket, as if
    /// sent by `peer` (nil: no peer address known) naming `host` (nil: no `Host`): what a test cannot send from
    /// 127.0.0.1. Only for routes that need no database (the request's event loop is a test loop).
    public func get(
        _ target: String, peer: SocketAddress?, host: String?, headers: [(String, String)] = []
    ) async throws -> (status: Int, text: String) {
        let channel = EmbeddedChannel()
        channel.remoteAddress = peer
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let request = Request(
            head: HTTPRequest(method: .get, scheme: nil, authority: host, path: target, headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
        let context = LatchRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: app.logger))
        let response = try await responder.respond(to: request, context: context)
        let collected = CollectedBody()
        try await response.body.write(CollectingWriter(into: collected))
        return (response.status.code, String(buffer: collected.buffer.withLock { $0 }))
    }
}

/// A response body's bytes, collected by `CollectingWriter`.
private final class CollectedBody: Sendable {
    let buffer = Mutex(ByteBuffer())
}

/// Collects a response body.
private struct CollectingWriter: ResponseBodyWriter {
    let into: CollectedBody

    mutating func write(_ part: ByteBuffer) async throws {
        into.buffer.withLock { buffer in
            var part = part
            buffer.writeBuffer(&part)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
