/// A block of addresses in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`; a bare address is a block
/// of one). Host bits after the prefix must be zero, so `10.0.0.1/8` is refused rather than guessed at.
/// An IPv4-mapped IPv6 block (`::ffff:10.0.0.0/104`) is the IPv4 block it stands for, and addresses
/// are unmapped before matching, so an IPv4 client on a dual-stack socket matches IPv4 blocks.
///
///     CIDRBlock("10.0.0.0/8")?.contains(IPAddress("10.1.2.3")!) == true
public struct CIDRBlock: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the block (its network address).
    public let network: IPAddress
    /// How many leading bits every address of the block shares with `network`.
    public let prefixLength: Int

    /// Parses `text`; nil when it is not a block.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let parsed = IPAddress(parts[0]) else { return nil }
        var address = parsed
        var length = address.bytes.count * 8
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                digits.count == 1 || digits.first != "0", let value = Int(digits),
                value <= length
            else { return nil }
            length = value
        }
        if address.unmapped.isIPv4, !address.isIPv4 {
            guard length >= 96 else { return nil } // a mapped block shorter than /96 is no IPv4 block
            address = address.unmapped
            length -= 96
        }
        guard Self.hostBitsAreZero(address.bytes, prefixLength: length) else { return nil }
        network = address
        prefixLength = length
    }

    /// Whether `address` (unmapped first) lies in this block.
    public func contains(_ address: IPAddress) -> Bool {
        let candidate = address.unmapped
        guard candidate.bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(network.bytes, candidate.bytes) {
            guard remaining > 0 else { return true }
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            remaining -= bits
        }
        return true
    }

    public var description: String { "\(network)/\(prefixLength)" }

    private static func hostBitsAreZero(_ bytes: [UInt8], prefixLength: Int) -> Bool {
        for (index, byte) in bytes.enumerated() {
            let networkBits = max(0, min(8, prefixLength - index * 8))
            let hostMask = networkBits == 8 ? 0 : UInt8(truncatingIfNeeded: 0xFF >> networkBits)
            if byte & hostMask != 0 { return false }
        }
        return true
    }
}
