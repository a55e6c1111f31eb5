import Foundation
import NIOCore
import NIOPosix

/// One HTTP/1.1 GET with the request target sent byte for byte (no client-side normalisation of
/// `..` or %-escapes), on NIO so no thread of the cooperative pool blocks.
enum RawHTTP {
    static func get(_ target: String, port: Int) async throws -> (status: Int, body: String) {
        let collected = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: String.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(done: collected))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request)).get()
        let text = try await collected.futureResult.get()
        let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        return (status, body)
    }

    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let done: EventLoopPromise<String>
        var text = ""

        init(done: EventLoopPromise<String>) { self.done = done }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            text += buffer.readString(length: buffer.readableBytes) ?? ""
        }

        func channelInactive(context: ChannelHandlerContext) {
            done.succeed(text)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            done.fail(error)
            context.close(promise: nil)
        }
    }
}
