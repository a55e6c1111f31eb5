import Foundation
import NIOCore
import NIOSSL

/// Where and how latchd sends mail, parsed from `LATCH_SMTP_URL`:
///
///     smtp://user:pass@mail.example.com:587   // STARTTLS required (default port 25)
///     smtps://user:pass@mail.example.com      // TLS from the first byte (default port 465)
///     smtp://127.0.0.1:2525                   // loopback: STARTTLS when the server offers it
///     smtp+insecure://relay.internal:25       // plain allowed: STARTTLS only when offered
///
/// Mail never goes unencrypted to another machine unless the URL says `smtp+insecure://`.
/// User and password are percent-decoded (`p%40ss` is `p@ss`). Credentials are sent only over TLS,
/// or in the clear to a loopback host (never in the clear elsewhere, not even with `smtp+insecure://`).
/// An IP-address host is checked against the certificate's IP addresses (no SNI is sent for it).
/// The description never shows the password.
public struct SMTPConfiguration: Sendable, CustomStringConvertible {
    /// How the connection is protected.
    public enum Security: Sendable, Equatable {
        /// Plain TCP that must be upgraded with STARTTLS before anything is sent; a server that does
        /// not offer it fails the delivery permanently (`smtp://` to a host that is not loopback).
        case startTLSRequired
        /// Plain TCP, upgraded with STARTTLS when the server offers it, plain otherwise
        /// (`smtp://` to a loopback host, or `smtp+insecure://`).
        case startTLSWhenOffered
        /// TLS from the start (`smtps://`).
        case implicitTLS
    }

    /// The URL schemes latchd knows; each says how much protection the operator asks for.
    enum Scheme: String, Sendable {
        case smtp
        case smtps
        case smtpInsecure = "smtp+insecure"
    }

    /// The protection for `scheme` to `host`: the rule that keeps mail off the network in the clear
    /// unless the URL says so explicitly.
    static func security(for scheme: Scheme, host: String) -> Security {
        switch scheme {
        case .smtps: .implicitTLS
        case .smtpInsecure: .startTLSWhenOffered
        case .smtp: LoopbackAddress.isLoopback(host: host) ? .startTLSWhenOffered : .startTLSRequired
        }
    }

    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    public var security: Security
    /// The scheme the URL named (kept for the description).
    let scheme: Scheme
    /// TLS settings (system trust roots, full verification); tests trust their own certificate.
    public var tls: TLSConfiguration = .makeClientConfiguration()
    public var connectTimeout: TimeAmount = .seconds(10)
    /// How long each command may wait for its reply (the final reply to DATA included).
    public var stepTimeout: TimeAmount = .seconds(60)

    /// Parses `url`; the error names `LATCH_SMTP_URL` and never repeats the value (it may hold a password).
    public init(url raw: String) throws {
        let shape =
            "must look like smtp://user:pass@host:port, smtps://user:pass@host:port or smtp+insecure://host:port"
        guard let components = URLComponents(string: raw), let schemeName = components.scheme?.lowercased() else {
            throw ConfigurationError("LATCH_SMTP_URL", shape)
        }
        guard let scheme = Scheme(rawValue: schemeName) else {
            throw ConfigurationError("LATCH_SMTP_URL", shape + " (the scheme is \(schemeName))")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ConfigurationError("LATCH_SMTP_URL", shape + " (the host is missing)")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil
        else {
            throw ConfigurationError("LATCH_SMTP_URL", shape + " (no path or query)")
        }
        let port = components.port ?? (scheme == .smtps ? 465 : 25)
        guard (1...65535).contains(port) else {
            throw ConfigurationError("LATCH_SMTP_URL", "the port must be 1 to 65535")
        }
        let username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }
        let password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        if (components.percentEncodedUser != nil && username == nil)
            || (components.percentEncodedPassword != nil && password == nil)
        {
            throw ConfigurationError("LATCH_SMTP_URL", "the user or password has a bad percent-escape")
        }
        if password != nil && (username ?? "").isEmpty {
            throw ConfigurationError("LATCH_SMTP_URL", "a password needs a user (smtp://user:pass@host)")
        }
        self.scheme = scheme
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.security = Self.security(for: scheme, host: self.host)
        self.port = port
        self.username = (username ?? "").isEmpty ? nil : username
        self.password = password
    }

    /// Whether credentials are configured.
    var hasCredentials: Bool { username != nil }

    /// Whether `host` is this machine (credentials may then travel without TLS).
    var isLoopback: Bool { LoopbackAddress.isLoopback(host: host) }

    /// The name for TLS server-name indication and certificate checks; nil for an IP address, which
    /// NIOSSL then checks against the certificate's IP-address SANs (the peer's address, RFC 6125).
    var serverHostname: String? {
        LoopbackAddress.isIPAddress(host) ? nil : host
    }

    public var description: String {
        let user = username.map { "\($0)\(password == nil ? "" : ":***")@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme.rawValue)://\(user)\(shownHost):\(port)"
    }
}
