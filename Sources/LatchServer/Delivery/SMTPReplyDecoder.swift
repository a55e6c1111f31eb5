import NIOCore

/// Splits the server's bytes into CRLF lines and groups them into `SMTPReply` values.
/// A line longer than 4 KiB is a protocol error (RFC 5321 allows 512 octets per reply line).
struct SMTPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPReply

    private var parser = SMTPReplyParser()
    private let maximumLineLength = 4096

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maximumLineLength { throw SMTPReplyParser.ParseError.malformedLine }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        guard var line = buffer.readString(length: length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 1)
        if line.hasSuffix("\r") { line.removeLast() }
        if let reply = try parser.consume(line) {
            context.fireChannelRead(wrapInboundOut(reply))
        }
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
