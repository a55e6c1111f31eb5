import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One IP address a receiver is reached at, with its kind (issue 42 §3). An address that stands for an
/// IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`) is judged
/// as that IPv4 address, so `::ffff:127.0.0.1` is loopback.
///
///     ReceiverAddress("172.15.255.255")?.kind    // .publicAddress
///     ReceiverAddress("172.16.0.0")?.kind        // .privateNetwork
///     ReceiverAddress("[::ffff:10.0.0.1]")?.kind // .privateNetwork
struct ReceiverAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address (an IPv4-mapped address as its IPv4 address: the one judged and connected to).
    let ip: IPAddress
    /// What kind of address it is.
    let kind: ReceiverAddressKind

    init(_ ip: IPAddress) {
        self.ip = ip.unmapped
        kind = Self.classify(ip)
    }

    /// Parses an IP address as text (IPv6 with or without brackets); nil for a name or anything else.
    init?(_ text: some StringProtocol) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        guard let ip = IPAddress(text) else { return nil }
        self.init(ip)
    }

    /// A resolved socket address; nil for a Unix domain socket.
    init?(_ address: SocketAddress) {
        switch address {
        // The address's bytes by their place in the C struct (`sin_addr` at 4, `sin6_addr` at 8 on Linux and
        // Darwin alike), not by member name: a fresh build may see the structs as CNIOLinux's, whose members
        // this target cannot name (MemberImportVisibility).
        case .v4(let v4):
            self.init(IPAddress(bytes: withUnsafeBytes(of: v4.address) { Array($0[4..<8]) }))
        case .v6(let v6):
            self.init(IPAddress(bytes: withUnsafeBytes(of: v6.address) { Array($0[8..<24]) }))
        case .unixDomainSocket:
            return nil
        }
    }

    /// Whether `rules` let latchd connect to this address.
    func isAllowed(by rules: ReceiverAddressRules) -> Bool { rules.allows(kind) }

    /// The address as text a connection can be made to (dotted quad, or eight hex groups).
    var description: String { ip.description }

    /// The kind of `ip`, by the first block of the tables below that holds it.
    static func classify(_ ip: IPAddress) -> ReceiverAddressKind {
        let ip = ip.unmapped
        if ip.isIPv4 {
            return ipv4Blocks.first { $0.block.contains(ip) }?.kind ?? .publicAddress
        }
        if let embedded = embeddedIPv4(ip) { return classify(embedded) }
        if let kind = ipv6Blocks.first(where: { $0.block.contains(ip) })?.kind { return kind }
        return globalUnicast.contains(ip) ? .publicAddress : .reserved
    }

    /// The IPv4 address a NAT64 (64:ff9b::/96, RFC 6052) or 6to4 (2002::/16, RFC 3056) address carries.
    private static func embeddedIPv4(_ ip: IPAddress) -> IPAddress? {
        let bytes = ip.bytes
        if nat64.contains(ip) { return IPAddress(bytes: Array(bytes[12..<16])) }
        if sixToFour.contains(ip) { return IPAddress(bytes: Array(bytes[2..<6])) }
        return nil
    }

    private static let nat64 = block("64:ff9b::/96")
    private static let sixToFour = block("2002::/16")
    private static let globalUnicast = block("2000::/3")

    /// IPv4 blocks that are not public, most specific first where they overlap; the rest is public.
    private static let ipv4Blocks: [(block: CIDRBlock, kind: ReceiverAddressKind)] = [
        (block("0.0.0.0/8"), .unspecified),
        (block("10.0.0.0/8"), .privateNetwork),
        (block("100.64.0.0/10"), .carrierGradeNAT),
        (block("127.0.0.0/8"), .loopback),
        (block("169.254.0.0/16"), .linkLocal),
        (block("172.16.0.0/12"), .privateNetwork),
        (block("192.0.0.0/24"), .reserved),
        (block("192.0.2.0/24"), .documentation),
        (block("192.88.99.0/24"), .reserved),
        (block("192.168.0.0/16"), .privateNetwork),
        (block("198.18.0.0/15"), .benchmarking),
        (block("198.51.100.0/24"), .documentation),
        (block("203.0.113.0/24"), .documentation),
        (block("224.0.0.0/4"), .multicast),
        (block("255.255.255.255/32"), .broadcast),
        (block("240.0.0.0/4"), .reserved)
    ]

    /// IPv6 blocks that are not public (after the embedded IPv4 forms); outside 2000::/3 is reserved.
    private static let ipv6Blocks: [(block: CIDRBlock, kind: ReceiverAddressKind)] = [
        (block("::/128"), .unspecified),
        (block("::1/128"), .loopback),
        (block("::/8"), .reserved),
        (block("100::/64"), .reserved),
        (block("2001:db8::/32"), .documentation),
        (block("2001:2::/48"), .benchmarking),
        (block("2001::/32"), .reserved),
        (block("3fff::/20"), .documentation),
        (block("fc00::/7"), .privateNetwork),
        (block("fe80::/10"), .linkLocal),
        (block("fec0::/10"), .privateNetwork),
        (block("ff00::/8"), .multicast)
    ]

    private static func block(_ text: String) -> CIDRBlock {
        guard let block = CIDRBlock(text) else {
            preconditionFailure("\(text) is a constant of this file and a valid CIDR block")
        }
        return block
    }
}
