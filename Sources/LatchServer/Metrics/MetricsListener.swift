import NIOCore
import NIOHTTP1
import NIOPosix

/// The Prometheus listener (`LATCH_METRICS_HOST:LATCH_METRICS_PORT`): a small HTTP/1 server on
/// latchd's event loops, apart from the API's listener so the metrics never face the internet with
/// it. `GET /metrics` answers the Prometheus text format; any other path 404, any other method 405.
/// Every answer closes its connection (a scraper asks every few seconds; nothing to keep alive); a
/// connection that sends nothing is closed after `Limits.idleTimeout`, and beyond
/// `Limits.maximumConnections` open at once a new one is closed at once (issue 20 §10).
final class MetricsListener: Sendable {
    /// What one client may hold of the listener.
    struct Limits: Sendable {
        var idleTimeout: TimeAmount
        var maximumConnections: Int
    }

    private let channel: any Channel

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Binds `host:port` (port 0: one the system chooses, see `port`) and starts answering.
    static func start(
        host: String, port: Int, metrics: LatchMetrics, limits: Limits, on group: any EventLoopGroup
    ) async throws -> MetricsListener {
        let open = ConnectionCounter(maximum: limits.maximumConnections)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 32)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard open.admit(nil) == .admitted else {
                        channel.close(promise: nil)
                        return
                    }
                    channel.closeFuture.whenComplete { _ in open.release(nil) }
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: limits.idleTimeout))
                    try channel.pipeline.syncOperations.addHandler(CloseWhenIdle())
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MetricsRequestHandler(metrics: metrics))
                }
            }
            .bind(host: host, port: port).get()
        return MetricsListener(channel: channel)
    }

    /// The port it listens on.
    var port: Int? { channel.localAddress?.port }

    /// Stops listening (a scrape in flight still gets its answer).
    func stop() async {
        try? await channel.close()
    }
}

/// Answers one request per connection, once it has arrived whole: the scrape, 404 or 405.
private final class MetricsRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let metrics: LatchMetrics
    private var head: HTTPRequestHead?

    init(metrics: LatchMetrics) {
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end: if let head { respond(to: head, on: context.channel) }
        }
    }

    private func respond(to head: HTTPRequestHead, on channel: any Channel) {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path == "/metrics" else {
            MetricsAnswer.write(.notFound, body: Array("not found: the metrics are at /metrics\n".utf8), on: channel)
            return
        }
        guard head.method == .GET || head.method == .HEAD else {
            MetricsAnswer.write(
                .methodNotAllowed, body: Array("GET /metrics\n".utf8), extra: [("Allow", "GET, HEAD")], on: channel)
            return
        }
        let metrics = self.metrics
        let headOnly = head.method == .HEAD
        Task {
            let text = await metrics.scrape()
            MetricsAnswer.write(
                .ok, body: text, contentType: "text/plain; version=0.0.4; charset=utf-8", headOnly: headOnly,
                on: channel)
        }
    }

}

/// The metrics listener's answers.
private enum MetricsAnswer {
    /// Writes a whole answer and closes the connection (from any thread: the channel hops to its loop).
    static func write(
        _ status: HTTPResponseStatus, body: [UInt8], contentType: String = "text/plain; charset=utf-8",
        extra: [(String, String)] = [], headOnly: Bool = false, on channel: any Channel
    ) {
        var headers = HTTPHeaders([
            ("Content-Type", contentType), ("Content-Length", String(body.count)), ("Connection", "close")
        ])
        headers.add(contentsOf: extra)
        SecurityHeadersMiddleware.protect(headers: &headers)
        channel.write(
            HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)),
            promise: nil)
        if !headOnly {
            channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
        }
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Closes its connection when `IdleStateHandler` says nothing moved for the idle timeout.
private final class CloseWhenIdle: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
