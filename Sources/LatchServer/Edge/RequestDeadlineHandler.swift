import Logging
import NIOCore
import NIOHTTPTypes

/// Drives `RequestDeadlines` for one connection: first in its pipeline, it sees the client's bytes before
/// they are decoded (the head's deadline starts at its first byte), and `RequestProgressHandler`, after the
/// HTTP decoder, tells it when a head and an end arrive. A late request closes the connection.
final class RequestDeadlineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var deadlines: RequestDeadlines
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    private let logger: Logger

    init(headerTimeout: TimeAmount, bodyTimeout: TimeAmount, logger: Logger) {
        deadlines = RequestDeadlines(headerTimeout: headerTimeout, bodyTimeout: bodyTimeout)
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        run(deadlines.bytesArrived(now: .now()))
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    /// From `RequestProgressHandler`: a request head was decoded.
    func headArrived() { run(deadlines.headArrived(now: .now())) }

    /// From `RequestProgressHandler`: a request's end was decoded.
    func endArrived() { run(deadlines.endArrived()) }

    private func run(_ action: RequestDeadlines.Action) {
        guard let context else { return }
        switch action {
        case .arm(let deadline):
            timer?.cancel()
            timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                timer = nil
                run(deadlines.timerFired(now: .now()))
            }
        case .disarm:
            timer?.cancel()
            timer = nil
        case .close:
            logger.info(
                "connection closed: its request did not arrive in time",
                metadata: ["peer": "\(context.channel.remoteAddress?.ipAddress ?? "unknown")"])
            context.close(promise: nil)
        case .none:
            break
        }
    }
}

/// After the HTTP decoder: tells `RequestDeadlineHandler` when a request's head and end arrive.
final class RequestProgressHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let deadlines: RequestDeadlineHandler

    init(reportingTo deadlines: RequestDeadlineHandler) { self.deadlines = deadlines }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: deadlines.headArrived()
        case .body: break
        case .end: deadlines.endArrived()
        }
        context.fireChannelRead(data)
    }
}
