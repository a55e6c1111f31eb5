import LatchCore
import NIOCore

/// JSON written field by field into a `ByteBuffer`, for the answers a hot path sends on every request
/// (issue 21: `JSONEncoder` was 5 % of a refresh's CPU). Keys are written in the caller's order (the token
/// answer gives them sorted, as `LatchJSON.encoder` writes them), strings are escaped as `LatchJSON.encoder`
/// escapes them (`.withoutEscapingSlashes`), so the bytes are the same (`TokenResponseBodyTests` compares them). Log lines have their own writer (`JSONText`), which escapes more.
/// `escapingSlashes` writes `/` as `\/`, as Foundation's default `JSONEncoder` (jwt-kit's) does: the access
/// token's claims are escaped as jwt-kit escaped them (`AccessTokenSignerTests`).
struct JSONBodyWriter {
    private(set) var buffer: ByteBuffer
    private var needsComma = false
    private let escapingSlashes: Bool

    init(capacity: Int, escapingSlashes: Bool = false) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
        self.escapingSlashes = escapingSlashes
    }

    mutating func beginObject(_ key: StaticString? = nil) {
        if let key { writeKey(key) } else { writeComma() }
        buffer.writeInteger(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        buffer.writeInteger(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func field(_ key: StaticString, _ value: String) {
        writeKey(key)
        writeString(value)
    }

    /// Nothing at all when `value` is nil, as `encodeIfPresent` (the synthesized `Encodable`) leaves it out.
    mutating func field(_ key: StaticString, ifPresent value: String?) {
        guard let value else { return }
        field(key, value)
    }

    mutating func field(_ key: StaticString, _ value: Int) {
        writeKey(key)
        buffer.writeString(String(value))
    }

    mutating func field(_ key: StaticString, _ value: Bool) {
        writeKey(key)
        buffer.writeStaticString(value ? "true" : "false")
    }

    private mutating func writeComma() {
        if needsComma { buffer.writeInteger(UInt8(ascii: ",")) }
    }

    private mutating func writeKey(_ key: StaticString) {
        writeComma()
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeStaticString(key)
        buffer.writeStaticString("\":")
        needsComma = true
    }

    /// Quotation mark, reverse solidus and the control characters escaped (RFC 8259 §7); everything else,
    /// `/` and non-ASCII included, as its UTF-8 bytes.
    private mutating func writeString(_ value: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        if value.utf8.contains(where: {
            $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
                || (escapingSlashes && $0 == UInt8(ascii: "/"))
        }) {
            for byte in value.utf8 { writeEscaped(byte) }
        } else {
            buffer.writeString(value)
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
        case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
        case UInt8(ascii: "/") where escapingSlashes: buffer.writeStaticString("\\/")
        case 0x08: buffer.writeStaticString("\\b")
        case 0x0C: buffer.writeStaticString("\\f")
        case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
        case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
        case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
        case 0..<0x20:
            buffer.writeStaticString("\\u00")
            buffer.writeString(Hex.lowercase(CollectionOfOne(byte)))
        default: buffer.writeInteger(byte)
        }
    }
}
