import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A raw TCP connection for the HTTP edge's tests (issue 41 §3): bytes are sent as they are (framing no
/// client library would send, a head trickled byte by byte), optionally from another loopback source
/// address (`127.0.0.2`: another client), and whatever comes back is kept, with the moment latchd closes.
final class RawConnection: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: `state` is behind its Mutex; `channel` is set once, in `open`, before the value is shared.
    typealias InboundIn = ByteBuffer

    private let state = Mutex<(received: String, closed: Bool)>(("", false))
    private var channel: (any Channel)?

    /// Connects to `127.0.0.1:port`, from `source` (a loopback address) when given.
    static func open(port: Int, from source: String? = nil) async throws -> RawConnection {
        let connection = RawConnection()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(3))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(connection) }
            }
        if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        connection.channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        return connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let text = buffer.readString(length: buffer.readableBytes) ?? ""
        state.withLock { $0.received += text }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLock { $0.closed = true }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Sends `text` (its UTF-8 bytes); throws once the connection is closed.
    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) async throws {
        guard let channel else { return }
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
    }

    /// Everything received so far.
    var received: String { state.withLock { $0.received } }
    /// Whether latchd (or the network) has closed the connection.
    var isClosed: Bool { state.withLock { $0.closed } }
    /// The status code of the first answer received; nil before one arrived.
    var status: Int? {
        let line = received.prefix { $0 != "\r" }.split(separator: " ")
        return line.count > 1 ? Int(line[1]) : nil
    }
    /// The body of the first answer (everything after its head).
    var body: String { received.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n") }

    /// Whether the connection is closed within `limit` (answers as soon as it is).
    func closes(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !isClosed {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    func close() async { try? await channel?.close() }

    /// `GET /health` on a connection of its own from `source`; the status, or nil when none came.
    static func health(port: Int, from source: String? = nil, within limit: Duration = .seconds(10)) async -> Int? {
        guard let connection = try? await open(port: port, from: source) else { return nil }
        try? await connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        _ = await connection.closes(within: limit)
        await connection.close()
        return connection.status
    }
}
