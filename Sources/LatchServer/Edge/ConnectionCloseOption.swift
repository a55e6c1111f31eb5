import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Makes a request's `Connection` header read `close` when any of its options is `close` in any case
/// (`Connection: Close`, `keep-alive, close`): connection options are case-insensitive (RFC 9110 §7.6.1),
/// but Hummingbird ends the connection after the answer only for the exact value `close`. Also when the
/// request uses a transfer coding latchd refuses (`TransferCodingMiddleware`, 501): where its body ends is
/// not known, so nothing after it on the connection may be read as the next request.
final class ConnectionCloseOption: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data),
            Self.asksToClose(head.headerFields)
                || TransferCodingMiddleware.hasUnsupportedCoding(head.headerFields)
        else {
            context.fireChannelRead(data)
            return
        }
        head.headerFields[.connection] = "close"
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Whether some `Connection` option is `close` but the header is not exactly `close`.
    static func asksToClose(_ fields: HTTPFields) -> Bool {
        let lines = fields[values: .connection]
        guard !lines.isEmpty, lines != ["close"] else { return false }
        return lines.contains { line in
            line.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
        }
    }
}
