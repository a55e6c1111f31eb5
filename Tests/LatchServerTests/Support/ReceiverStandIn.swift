import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A receiver on a loopback port: records each request and the connections it accepted, and answers by
/// path: `/ok` 200 `accepted`, `/big` 200 with 1 MiB of `x`, `/redirect` 302 to `/target`, `/hang` never.
final class ReceiverStandIn: Sendable {
    struct Received: Sendable {
        let method: HTTPMethod
        let uri: String
        let headers: [String: [String]]
        let body: String
    }

    private final class Record: Sendable {
        let requests = Mutex<[Received]>([])
        let peers = Mutex<[String]>([])
    }

    private let channel: any Channel
    private let record: Record

    var port: Int { channel.localAddress?.port ?? 0 }
    var requests: [Received] { record.requests.withLock { $0 } }
    var connections: Int { record.peers.withLock { $0.count } }
    /// The address each connection came to, in order.
    var peers: [String] { record.peers.withLock { $0 } }

    private init(channel: any Channel, record: Record) {
        self.channel = channel
        self.record = record
    }

    /// Listens on 127.0.0.1, or with `bindingAll` on 0.0.0.0 (so 127.0.0.2 reaches it too).
    static func start(bindingAll: Bool = false) async throws -> ReceiverStandIn {
        let record = Record()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                record.peers.withLock { $0.append(child.localAddress?.ipAddress ?? "?") }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(Responder(record: record))
                }
            }
            .bind(host: bindingAll ? "0.0.0.0" : "127.0.0.1", port: 0).get()
        return ReceiverStandIn(channel: channel, record: record)
    }

    /// A loopback port nothing listens on (bound, then closed).
    static func closedPort() async throws -> Int {
        let receiver = try await start()
        let port = receiver.port
        await receiver.stop()
        return port
    }

    func stop() async {
        try? await channel.close()
    }

    private final class Responder: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let record: Record
        private var head: HTTPRequestHead?
        private var body = ByteBuffer()

        init(record: Record) { self.record = record }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body.clear()
            case .body(var chunk):
                body.writeBuffer(&chunk)
            case .end:
                guard let head else { return }
                var headers: [String: [String]] = [:]
                for (name, value) in head.headers { headers[name.lowercased(), default: []].append(value) }
                record.requests.withLock {
                    $0.append(
                        Received(method: head.method, uri: head.uri, headers: headers, body: String(buffer: body)))
                }
                answer(head, context: context)
            }
        }

        private func answer(_ request: HTTPRequestHead, context: ChannelHandlerContext) {
            let path = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
            switch path {
            case "/hang":
                return
            case "/big":
                respond(.ok, body: String(repeating: "x", count: 1 << 20), request: request, context: context)
            case "/redirect":
                respond(.found, body: "", extra: [("Location", "/target")], request: request, context: context)
            default:
                respond(.ok, body: "accepted", request: request, context: context)
            }
        }

        private func respond(
            _ status: HTTPResponseStatus, body: String, extra: [(String, String)] = [], request: HTTPRequestHead,
            context: ChannelHandlerContext
        ) {
            var headers = HTTPHeaders(extra)
            headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            let head = HTTPResponseHead(version: request.version, status: status, headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
