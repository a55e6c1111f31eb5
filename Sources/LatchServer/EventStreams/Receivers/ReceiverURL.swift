/// A receiver URL that passed issue 42 §3's rules: `https` (or `http` when allowed), a host, no user name
/// or password, no fragment, at most 2,048 characters, and, when the host is an IP address or `localhost`,
/// an address the rules allow. A name's addresses are judged when it is resolved (`ReceiverResolver`).
/// Parsed by hand, strictly, so no two parsers can disagree about which host it names: the host is
/// lowercased, an IPv6 address is kept without its brackets, and a numeric host must be a dotted quad.
///
///     let url = try ReceiverURL("https://Hooks.Example.com/latch?stream=1", rules: .strict)
///     url.host          // "hooks.example.com"
///     url.port          // 443
///     url.pathAndQuery  // "/latch?stream=1"
struct ReceiverURL: Sendable, Hashable, CustomStringConvertible {
    enum Scheme: String, Sendable, Hashable {
        case https, http

        var defaultPort: Int { self == .https ? 443 : 80 }
    }

    /// The longest URL accepted, in characters.
    static let maximumLength = 2_048

    let scheme: Scheme
    /// The DNS name (lowercased) or IP address (IPv6 without brackets).
    let host: String
    /// The port, the scheme's default when the URL names none.
    let port: Int
    /// The path and query as written (`/` when the URL has neither).
    let pathAndQuery: String
    /// The host's address when the host is an IP address, not a name.
    let literalAddress: ReceiverAddress?

    /// Parses and checks `text` against `rules`.
    init(_ text: String, rules: ReceiverAddressRules) throws(ReceiverURLError) {
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong }
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .badURL }
        guard let separator = text.firstRange(of: "://") else { throw .badURL }
        switch text[..<separator.lowerBound].lowercased() {
        case "https": scheme = .https
        case "http":
            guard rules.allowsPlainHTTP else { throw .notHTTPS }
            scheme = .http
        default: throw .unsupportedScheme
        }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "\\" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@") else { throw .userinfo }
        guard !rest.contains("#") else { throw .fragment }
        let (host, port) = try Self.hostAndPort(authority)
        self.port = port ?? scheme.defaultPort
        let tail = rest[authorityEnd...]
        guard Self.isPathAndQuery(tail) else { throw .badURL }
        pathAndQuery = tail.isEmpty ? "/" : (tail.hasPrefix("?") ? "/" + tail : String(tail))
        self.host = host
        if let address = ReceiverAddress(host) {
            literalAddress = address
            guard address.isAllowed(by: rules) else { throw .refusedAddress(address.kind) }
        } else {
            literalAddress = nil
            // RFC 6761 §6.3: `localhost` and every name under it are this machine, whatever DNS says.
            let name = host.hasSuffix(".") ? String(host.dropLast()) : host
            if name == "localhost" || name.hasSuffix(".localhost"), !rules.allows(.loopback) {
                throw .refusedAddress(.loopback)
            }
        }
    }

    /// The URL to request: the parsed parts put together again (the default port left out).
    var text: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let portText = port == scheme.defaultPort ? "" : ":\(port)"
        return "\(scheme.rawValue)://\(bracketed)\(portText)\(pathAndQuery)"
    }

    /// The URL without its query (which may hold a token), for logs.
    var description: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let path = pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return "\(scheme.rawValue)://\(bracketed):\(port)\(path)"
    }

    /// `host[:port]` or `[v6][:port]`, the port nil when absent or empty (`host:`).
    private static func hostAndPort(_ authority: Substring) throws(ReceiverURLError) -> (String, Int?) {
        let hostPart: Substring
        let portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .badHost }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw .badHost }
            portPart = after.isEmpty ? nil : after.dropFirst()
            // Only an IPv6 address goes in brackets (no zone id, no IPvFuture).
            guard hostPart.contains(":"), IPAddress(hostPart) != nil else { throw .badHost }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw .badHost }
            hostPart = parts[0]
            portPart = parts.count == 2 ? parts[1] : nil
        }
        guard !hostPart.isEmpty else { throw .missingHost }
        let host = hostPart.lowercased()
        if !authority.hasPrefix("[") { try checkName(host) }
        guard let portPart, !portPart.isEmpty else { return (host, nil) }
        guard portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portPart),
            (1...65_535).contains(port)
        else { throw .badPort }
        return (host, port)
    }

    /// A DNS name of letters, digits, `-` and `_` (labels of 1–63, 253 in all, one trailing dot allowed), or a
    /// dotted quad. A name whose last label is numeric (`2130706433`, `0x7f.1`, `127.1`) is refused: resolvers
    /// read those as IPv4 addresses in forms no one checks.
    private static func checkName(_ host: String) throws(ReceiverURLError) {
        if IPAddress(host)?.isIPv4 == true { return }
        let name = host.hasSuffix(".") ? host.dropLast() : Substring(host)
        guard !name.isEmpty, name.count <= 253 else { throw .badHost }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.count),
                label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { throw .badHost }
        }
        guard let last = labels.last, !last.allSatisfy(\.isNumber), !last.hasPrefix("0x") else { throw .badHost }
    }

    /// RFC 3986 path and query characters, percent-escapes complete.
    private static func isPathAndQuery(_ text: Substring) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?%")
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            guard allowed.contains(Character(UnicodeScalar(byte))) else { return false }
            if byte == UInt8(ascii: "%") {
                guard let high = bytes.next(), let low = bytes.next(),
                    Character(UnicodeScalar(high)).isHexDigit, Character(UnicodeScalar(low)).isHexDigit
                else { return false }
            }
        }
        return true
    }
}
