import Foundation

extension ServerURLPolicy {
    /// Throws ``UntrustedRequestURL`` unless `url` may carry the session's token for the server at
    /// `serverURL` (issue 28 §3): it is allowed as a server URL (`https`, or `http` to a loopback host)
    /// and has the server's origin, the same scheme, host and port (a missing port is the scheme's
    /// default: 443 for `https`, 80 for `http`). The path is the app's: any path of the server is fine.
    ///
    ///     try ServerURLPolicy.checkTokenDestination(URL(string: "https://auth.example.com/orders")!,
    ///                                               server: URL(string: "https://auth.example.com")!)  // passes
    public static func checkTokenDestination(_ url: URL?, server serverURL: URL) throws {
        guard let url, allows(url) else {
            throw UntrustedRequestURL(url: url, serverURL: serverURL, reason: .insecure)
        }
        guard origin(of: url) == origin(of: serverURL) else {
            throw UntrustedRequestURL(url: url, serverURL: serverURL, reason: .otherServer)
        }
    }

    /// `scheme://host:port`, lowercased, with the scheme's default port when the URL names none.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let host = (url.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
        return "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
