import NIOCore

/// The DATA section on the wire (RFC 5321 §4.5.2): every line ends in CRLF, a line starting
/// with "." gets a second ".", and "CRLF . CRLF" ends it.
enum SMTPDataEncoding {
    static func encode(_ message: String) -> ByteBuffer {
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
        if lines.last?.isEmpty == true { lines.removeLast() }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(message.utf8.count + lines.count * 2 + 5)
        for line in lines {
            if line.hasPrefix(".") { buffer.writeStaticString(".") }
            buffer.writeSubstring(line)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString(".\r\n")
        return buffer
    }
}
