import Foundation
import HTTPTypes
import LatchCore
import Logging
import NIOCore
import NIOHTTP1
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

/// After the HTTP decoder: tells `RequestDeadlineHandler` when a request's head and end arrive, and answers
/// a framing error NIO's parser finds before any route could (a request head with `Content-Length` and
/// `Transfer-Encoding` both, a bad `Content-Length`, …) in the API's error format: 400 MALFORMED_BODY,
/// `reasons: ["malformed_framing"]`, then closes (issue 41 §3 E1; Hummingbird would answer an empty 400).
/// Only while nothing else is being read or answered: an error inside a body reaches the route, which
/// answers it through `LatchErrorMiddleware`.
final class RequestProgressHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadlines: RequestDeadlineHandler
    /// Requests whose head arrived and whose answer has not been written whole.
    private var unanswered = 0
    /// A request's head arrived and its end has not.
    private var readingBody = false

    init(reportingTo deadlines: RequestDeadlineHandler) { self.deadlines = deadlines }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            readingBody = true
            deadlines.headArrived()
        case .body:
            break
        case .end:
            readingBody = false
            deadlines.endArrived()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered -= 1 }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, unanswered == 0, !readingBody else {
            context.fireErrorCaught(error)
            return
        }
        unanswered = 1 // this answer; nothing more is read
        let (head, body) = Self.malformedFramingAnswer()
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// 400 MALFORMED_BODY `malformed_framing`, in English (the head that would name a language did not parse).
    static func malformedFramingAnswer() -> (HTTPResponse, ByteBuffer) {
        let error = LatchError(.malformedBody, reasons: ["malformed_framing"])
        let json = APIErrorBody(
            error: error.code.rawValue, message: error.code.message(in: .en), details: error.details)
        let body = ByteBuffer(bytes: (try? LatchJSON.encoder.encode(json)) ?? Data(#"{"error":"MALFORMED_BODY"}"#.utf8))
        var fields: HTTPFields = [
            .contentType: "application/json; charset=utf-8", .cacheControl: "no-store", .connection: "close",
            .contentLength: String(body.readableBytes)
        ]
        SecurityHeadersMiddleware.protect(headers: &fields)
        return (HTTPResponse(status: .badRequest, headerFields: fields), body)
    }
}
