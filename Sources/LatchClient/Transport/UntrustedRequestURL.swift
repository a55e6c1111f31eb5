import Foundation

/// A request that ``LatchClient/send(_:)``, ``LatchClient/authorizedRequest(_:)`` and
/// ``LatchClient/authorize(_:)`` refuse to give the session's access token (issue 28 §3): its URL is not
/// `https` (plain `http` only to a loopback host), or it leaves the client's server (another scheme, host
/// or port). Nothing was sent and no token was read.
///
///     do {
///         _ = try await client.send(HTTPRequest(method: "GET", url: URL(string: "https://cdn.example.net/a")!))
///     } catch let refused as UntrustedRequestURL {
///         print(refused)  // "Latch gives the session's token only to its server https://auth.example.com:443; …"
///     }
public struct UntrustedRequestURL: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the URL may not carry the token.
    public enum Reason: Sendable, Equatable {
        /// Neither `https` nor `http` to a loopback host: the token would cross the network in clear.
        case insecure
        /// Another scheme, host or port than the client's server URL.
        case otherServer
    }

    /// The refused URL (`nil` for a `URLRequest` without one).
    public var url: URL?
    /// The client's server URL: the one origin that gets the token.
    public var serverURL: URL
    public var reason: Reason

    public init(url: URL?, serverURL: URL, reason: Reason) {
        self.url = url
        self.serverURL = serverURL
        self.reason = reason
    }

    public var description: String {
        let refused = url?.absoluteString ?? "a request without a URL"
        let server = ServerURLPolicy.origin(of: serverURL)
        return switch reason {
        case .insecure:
            "Latch sends the session's token only over https:// (http:// only to localhost, 127.0.0.1 or ::1); refused \(refused)"
        case .otherServer:
            "Latch gives the session's token only to its server \(server); refused \(refused) (for another backend, read client.validAccessToken() and attach it yourself)"
        }
    }
}
