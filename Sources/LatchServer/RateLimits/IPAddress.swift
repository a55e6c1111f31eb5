import Foundation

/// An IPv4 or IPv6 address as its bytes (4 or 16), parsed by hand so the rules are visible and
/// tested: dotted quads of four decimal parts (0–255, no leading zeros), IPv6 in the RFC 4291 text
/// forms (groups of one to four hex digits, one `::`, a dotted quad as the last 32 bits). Zone ids
/// (`%eth0`), brackets and ports are not part of an address.
///
///     IPAddress("203.0.113.7")            // 4 bytes
///     IPAddress("2001:db8::1")            // 16 bytes
///     IPAddress("::ffff:203.0.113.7")?.unmapped == IPAddress("203.0.113.7")
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, network order.
    public let bytes: [UInt8]

    public var isIPv4: Bool { bytes.count == 4 }

    /// Parses `text`; nil when it is not exactly an address.
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        if let v4 = Self.parseIPv4(text[...]) {
            bytes = v4
        } else if let v6 = Self.parseIPv6(text) {
            bytes = v6
        } else {
            return nil
        }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, what a dual-stack socket reports for an IPv4
    /// peer) as the IPv4 address it stands for; any other address as it is.
    public var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else {
            return self
        }
        return IPAddress(bytes: Array(bytes[12..<16]))
    }

    /// The key a client is counted under by rate limits: the IPv4 address itself, or the /64 of an
    /// IPv6 address (one subscriber usually holds a whole /64, so single addresses cost an attacker nothing).
    public var rateLimitKey: String {
        let address = unmapped
        if address.isIPv4 { return address.bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(address.bytes[$0]) << 8 | UInt16(address.bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }

    /// Dotted quad for IPv4, eight full hex groups for IPv6 (for logs and test messages).
    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }

    private static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var result: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                part.count == 1 || part.first != "0", let value = UInt8(part)
            else { return nil }
            result.append(value)
        }
        return result
    }

    private static func parseIPv6(_ text: String) -> [UInt8]? {
        guard text.contains(":"), text.count <= 45 else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, allowsTrailingIPv4: Bool) -> [UInt8]? {
            if part.isEmpty { return [] }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            var result: [UInt8] = []
            for (index, piece) in pieces.enumerated() {
                if allowsTrailingIPv4, index == pieces.count - 1, piece.contains(".") {
                    guard let v4 = parseIPv4(piece) else { return nil }
                    result += v4
                    continue
                }
                guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit), piece.allSatisfy(\.isASCII),
                    let value = UInt16(piece, radix: 16)
                else { return nil }
                result += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return result
        }
        if halves.count == 1 {
            guard let all = groups(halves[0], allowsTrailingIPv4: true), all.count == 16 else { return nil }
            return all
        }
        guard let head = groups(halves[0], allowsTrailingIPv4: false),
            let tail = groups(halves[1], allowsTrailingIPv4: true),
            head.count + tail.count <= 14
        else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
