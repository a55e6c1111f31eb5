import Foundation

/// The reverse proxies in front of latchd (`LATCH_TRUSTED_PROXIES`), and who the client of a
/// request is given them.
///
/// Without trusted proxies the client is the TCP peer, and `X-Forwarded-For` is ignored (anyone
/// can write it). With them, and only when the peer is one of them, the header is read from the
/// right: each trusted proxy appends the address it got the request from, so the right-most address
/// that is not a trusted proxy is the client; addresses to its left are the client's own claims
/// and are never believed. When every address is a trusted proxy, the left-most is the client.
///
///     let proxies = TrustedProxies(["10.0.0.0/8"].compactMap(CIDRBlock.init))
///     proxies.client(peer: "10.0.0.2", forwardedFor: ["198.51.100.1, 203.0.113.7, 10.0.0.9"])  // "203.0.113.7"
public struct TrustedProxies: Sendable, Equatable {
    public var blocks: [CIDRBlock]

    public init(_ blocks: [CIDRBlock] = []) { self.blocks = blocks }

    /// Parses `LATCH_TRUSTED_PROXIES`: CIDRs (or single addresses) separated by commas; nil when one is not.
    public init?(parsing list: String) {
        var blocks: [CIDRBlock] = []
        for item in list.split(separator: ",") {
            let text = item.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            guard let block = CIDRBlock(text) else { return nil }
            blocks.append(block)
        }
        self.blocks = blocks
    }

    /// Whether `address` is one of the trusted proxies.
    public func trusts(_ address: IPAddress) -> Bool { blocks.contains { $0.contains(address) } }

    /// The client's address for a request from `peer` (the TCP peer's address text) carrying the
    /// given `X-Forwarded-For` header values (in order); nil when the peer has no IP address.
    public func client(peer: String?, forwardedFor: [String]) -> String? {
        // With no trusted proxies the peer is the client: its address is not parsed (on every request).
        guard !blocks.isEmpty, let peer, let peerAddress = IPAddress(peer), trusts(peerAddress) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var nearest = peer
        for hop in hops.reversed() {
            // An entry a trusted proxy wrote but that is no address: the client is unknown beyond
            // `nearest`, the last hop known for sure (stricter for rate limits, never spoofable).
            guard let text = Self.addressText(hop), let address = IPAddress(text) else { return nearest }
            if !trusts(address) { return text }
            nearest = text
        }
        return nearest
    }

    /// The address in one `X-Forwarded-For` entry: `[v6]:port` and `v4:port` lose the brackets and port.
    static func addressText(_ entry: String) -> String? {
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { return nil }
            return String(entry[entry.index(after: entry.startIndex)..<close])
        }
        let colons = entry.filter { $0 == ":" }.count
        if colons == 1, let colon = entry.firstIndex(of: ":") { return String(entry[..<colon]) }
        return entry.isEmpty ? nil : entry
    }
}
