import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP forwarder on loopback in front of a server (PostgreSQL, for the readiness tests), which a
/// test can cut: `cut()` stops listening and closes every forwarded connection, so the server behind
/// it becomes unreachable to whoever connected through it, as in a network outage.
final class TCPForwarder: Sendable {
    private let listener: any Channel
    private let connections: Connections

    /// The forwarder's port on 127.0.0.1.
    var port: Int { listener.localAddress?.port ?? 0 }

    private init(listener: any Channel, connections: Connections) {
        self.listener = listener
        self.connections = connections
    }

    /// Listens on a free loopback port and forwards each connection to `host:port`.
    static func start(to host: String, port: Int) async throws -> TCPForwarder {
        let connections = Connections()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .channelInitializer { outbound in
                        outbound.eventLoop.makeCompletedFuture {
                            try outbound.pipeline.syncOperations.addHandler(Relay(to: inbound))
                        }
                    }
                    .connect(host: host, port: port)
                    .flatMapThrowing { outbound in
                        connections.add(inbound)
                        connections.add(outbound)
                        try inbound.pipeline.syncOperations.addHandler(Relay(to: outbound))
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return TCPForwarder(listener: listener, connections: connections)
    }

    /// Stops forwarding: no new connection is accepted and every open one is closed.
    func cut() async {
        try? await listener.close()
        for channel in connections.removeAll() { try? await channel.close() }
    }

    private final class Connections: Sendable {
        private let channels = Mutex<[any Channel]>([])
        func add(_ channel: any Channel) { channels.withLock { $0.append(channel) } }
        func removeAll() -> [any Channel] {
            channels.withLock { current in
                defer { current = [] }; return current
            }
        }
    }

    /// Writes what one side reads to the other, and closes the other when one side closes.
    private final class Relay: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let peer: any Channel

        init(to peer: any Channel) { self.peer = peer }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            peer.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

/// Whether something accepts TCP connections on 127.0.0.1:`port` (one connect, no retries).
enum LoopbackPort {
    static func isListening(_ port: Int) -> Bool {
        #if os(Linux)
            let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }
}
