import Foundation
import NIOCore
import NIOSSL

/// Where and how latchd sends mail, parsed from `LATCH_SMTP_URL`:
///
///     smtp://user:pass@mail.example.com:587   // STARTTLS when the server offers it (default port 25)
///     smtps://user:pass@mail.example.com      // TLS from the first byte (default port 465)
///
/// User and password are percent-decoded (`p%40ss` is `p@ss`). Credentials are sent only over TLS,
/// or in the clear to a loopback host. The description never shows the password.
public struct SMTPConfiguration: Sendable, CustomStringConvertible {
    /// How the connection is protected.
    public enum Security: Sendable, Equatable {
        /// Plain TCP, upgraded with STARTTLS when the server offers it.
        case startTLSWhenOffered
        /// TLS from the start (`smtps://`).
        case implicitTLS
    }

    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    public var security: Security
    /// TLS settings (system trust roots, full verification); tests trust their own certificate.
    public var tls: TLSConfiguration = .makeClientConfiguration()
    public var connectTimeout: TimeAmount = .seconds(10)
    /// How long each command may wait for its reply (the final reply to DATA included).
    public var stepTimeout: TimeAmount = .seconds(60)

    /// Parses `url`; the error names `LATCH_SMTP_URL` and never repeats the value (it may hold a password).
    public init(url raw: String) throws {
        let shape = "must look like smtp://user:pass@host:port or smtps://user:pass@host:port"
        guard let components = URLComponents(string: raw), let scheme = components.scheme?.lowercased() else {
            throw ConfigurationError("LATCH_SMTP_URL", shape)
        }
        switch scheme {
        case "smtp": security = .startTLSWhenOffered
        case "smtps": security = .implicitTLS
        default: throw ConfigurationError("LATCH_SMTP_URL", shape + " (the scheme is \(scheme))")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ConfigurationError("LATCH_SMTP_URL", shape + " (the host is missing)")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
            throw ConfigurationError("LATCH_SMTP_URL", shape + " (no path or query)")
        }
        let port = components.port ?? (security == .implicitTLS ? 465 : 25)
        guard (1...65535).contains(port) else { throw ConfigurationError("LATCH_SMTP_URL", "the port must be 1 to 65535") }
        let username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }
        let password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        if (components.percentEncodedUser != nil && username == nil) || (components.percentEncodedPassword != nil && password == nil) {
            throw ConfigurationError("LATCH_SMTP_URL", "the user or password has a bad percent-escape")
        }
        if password != nil && (username ?? "").isEmpty {
            throw ConfigurationError("LATCH_SMTP_URL", "a password needs a user (smtp://user:pass@host)")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.username = (username ?? "").isEmpty ? nil : username
        self.password = password
    }

    /// Whether credentials are configured.
    var hasCredentials: Bool { username != nil }

    /// Whether `host` is this machine (credentials may then travel without TLS).
    var isLoopback: Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }

    /// The name for TLS server-name indication and certificate checks (nil for an IP address).
    var serverHostname: String? {
        host.contains(":") || host.split(separator: ".").allSatisfy({ Int($0) != nil }) ? nil : host
    }

    public var description: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let user = username.map { "\($0)\(password == nil ? "" : ":***")@" } ?? ""
        return "\(scheme)://\(user)\(host):\(port)"
    }
}
