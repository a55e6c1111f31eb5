/// New request ids: random version-4 UUIDs (`8F3C…-4…`) drawn from `SystemRandomNumberGenerator`, which on
/// Linux is the `getrandom` system call. Foundation's `UUID()` reads `/dev/urandom` instead, and when no
/// file descriptor is left it returns all zeros without a word (`00000000-0000-4000-8000-000000000000`,
/// what a flood of connections made of every request id, issue 41 §3 E-X1): this needs no descriptor.
enum RequestID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40 // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80 // RFC 4122 variant
        let hex = bytes.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + text : text
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }
}
