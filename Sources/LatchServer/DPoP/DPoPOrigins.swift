import Foundation

/// The origins a DPoP proof's `htu` may name (issue 41 §2 D1): latchd's own public ones, as configured (the
/// issuer's and `LATCH_PUBLIC_ORIGINS`), never the `Host` or `X-Forwarded-Host` a request claims: a proof
/// a client made for another server must not pass here because the request says it is that server.
/// In development only, a loopback `Host` (`127.0.0.1:PORT`, `localhost`, `[::1]`) names latchd too: that is
/// where the CLI and tests reach it, and a development latchd listens on loopback only.
struct DPoPOrigins: Sendable, Equatable {
    /// `scheme://host[:port]`, lowercased, without the scheme's default port.
    let configured: [String]
    /// Whether a loopback `Host` also names latchd (development).
    let acceptsLoopbackHost: Bool

    init(issuer: String, publicOrigins: [String], mode: LatchConfig.Mode) {
        var configured = Self.origin(of: issuer, pathAllowed: true).map { [$0] } ?? []
        for origin in publicOrigins.compactMap({ Self.origin(of: $0) }) where !configured.contains(origin) {
            configured.append(origin)
        }
        self.configured = configured
        self.acceptsLoopbackHost = mode == .development
    }

    /// The URIs a proof of a request for `path` may name; `host` (the request's `Host`) counts only when
    /// it is loopback in development.
    func uris(path: String, host: String?) -> [String] {
        var uris = configured.map { $0 + path }
        if acceptsLoopbackHost, let host, LoopbackAddress.isLoopback(hostHeader: host) {
            uris.append("http://\(host)\(path)")
        }
        return uris
    }

    /// The origin `text` names, `scheme://host[:port]` (http or https, the host lowercased, the default port
    /// left out), or nil when it is not one: no host, user info, query or fragment, and no path beyond `/`
    /// (unless `pathAllowed`: the issuer may carry one, its origin is what counts).
    static func origin(of text: String, pathAllowed: Bool = false) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
            pathAllowed || ["", "/"].contains(components.path)
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(bracketed)\(port)"
    }
}
