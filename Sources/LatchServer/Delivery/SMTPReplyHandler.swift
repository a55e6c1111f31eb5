import NIOCore

/// Hands each reply to the command waiting for it. Replies that arrive before anyone waits (the
/// greeting) are kept; a closed connection, an error or a timeout fails every waiter.
/// Runs on its channel's event loop only (reached through `NIOLoopBound`).
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = SMTPReply

    private var waiting: [EventLoopPromise<SMTPReply>] = []
    private var unclaimed: [SMTPReply] = []
    private var failure: SMTPError?

    /// Fulfils `promise` with the next reply.
    func awaitReply(_ promise: EventLoopPromise<SMTPReply>) {
        if !unclaimed.isEmpty {
            promise.succeed(unclaimed.removeFirst())
        } else if let failure {
            promise.fail(failure)
        } else {
            waiting.append(promise)
        }
    }

    /// Fails every waiter (and every later one) with `error`.
    func fail(_ error: SMTPError) {
        if failure == nil { failure = error }
        let waiters = waiting
        waiting = []
        for waiter in waiters { waiter.fail(failure ?? error) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let reply = unwrapInboundIn(data)
        if waiting.isEmpty {
            unclaimed.append(reply)
        } else {
            waiting.removeFirst().succeed(reply)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(
            error as? SMTPError
                ?? (error is SMTPReplyParser.ParseError ? .malformedReply : .connection(SMTPConnection.name(of: error)))
        )
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.connection("connection closed"))
        context.fireChannelInactive()
    }
}
