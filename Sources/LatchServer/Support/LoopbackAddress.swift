import Foundation
import NIOCore

/// Which addresses are this machine's own: `localhost`, 127.0.0.0/8 and ::1 (also written as the
/// IPv4-mapped `::ffff:127.x.y.z`). Text is parsed strictly (`inet_pton`), so a host name such as
/// `127.example.com` is a name, not a loopback address.
///
///     LoopbackAddress.isLoopback(host: "127.0.0.1")      // true
///     LoopbackAddress.isLoopback(host: "0.0.0.0")        // false
///     LoopbackAddress.isLoopback(request.remoteAddress)  // the TCP peer
enum LoopbackAddress {
    /// Whether `host` (a name, or an IP address as text, IPv6 with or without brackets) is loopback.
    static func isLoopback(host: String) -> Bool {
        let host = unbracketed(host)
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "localhost." { return true }
        return isLoopback(try? SocketAddress(ipAddress: host, port: 0))
    }

    /// Whether an HTTP `Host` header (`name`, `name:port`, `[v6]` or `[v6]:port`) names this machine.
    ///
    ///     LoopbackAddress.isLoopback(hostHeader: "localhost:8080")       // true
    ///     LoopbackAddress.isLoopback(hostHeader: "[::1]:8080")           // true
    ///     LoopbackAddress.isLoopback(hostHeader: "rebound.example:8080") // false
    static func isLoopback(hostHeader: String) -> Bool {
        let value = hostHeader.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return false }
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isPort(rest.dropFirst())) else { return false }
            return isLoopback(host: String(value[...close]))
        }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return isLoopback(host: value)
        case 2: return isPort(parts[1]) && isLoopback(host: String(parts[0]))
        default: return false // an IPv6 address must be bracketed in Host (RFC 7230 §5.4)
        }
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether a socket address (e.g. a request's TCP peer) is loopback; nil (no peer known) is not.
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let address, let text = address.ipAddress else { return false }
        switch address {
        case .v4:
            return text.hasPrefix("127.")
        case .v6:
            let lowered = text.lowercased()
            return lowered == "::1" || lowered.hasPrefix("::ffff:127.")
        case .unixDomainSocket:
            return false
        }
    }

    /// Whether `host` is an IP address (v4 dotted quad or v6), not a name.
    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: unbracketed(host), port: 0)) != nil
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
