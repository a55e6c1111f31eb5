/// Why an attempt got no answer (issue 42 §3). Its `description` is short and safe to log and store: it
/// names no URL, header, body or secret.
enum ReceiverFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host is, or resolves to, an address the rules refuse (a name with any refused address is refused).
    case refusedAddress(ReceiverAddressKind)
    /// The name does not resolve (no such name, or no IPv4 or IPv6 address).
    case unresolvable
    /// The resolver failed (server failure, no network).
    case resolutionFailed
    /// No connection within the connect timeout.
    case connectTimeout
    /// The connection was refused or could not be made.
    case connectFailed
    /// The TLS handshake failed (an untrusted or wrong certificate, no common protocol).
    case tls
    /// No whole answer within the answer timeout.
    case timeout
    /// The receiver closed the connection before answering.
    case connectionClosed
    /// The answer was not HTTP.
    case badAnswer
    /// The attempt was cancelled (latchd stopping).
    case cancelled
    /// The client was shut down.
    case shutDown
    /// Anything else, named by the error's type only.
    case other(String)

    /// A stable code for metrics and logs.
    var code: String {
        switch self {
        case .refusedAddress: "refused_address"
        case .unresolvable: "unresolvable"
        case .resolutionFailed: "resolution_failed"
        case .connectTimeout: "connect_timeout"
        case .connectFailed: "connect_failed"
        case .tls: "tls"
        case .timeout: "timeout"
        case .connectionClosed: "connection_closed"
        case .badAnswer: "bad_answer"
        case .cancelled: "cancelled"
        case .shutDown: "shut_down"
        case .other: "other"
        }
    }

    /// `code`, with the address kind or error type where there is one (`refused_address: loopback`).
    var description: String {
        switch self {
        case .refusedAddress(let kind): "\(code): \(kind.rawValue)"
        case .other(let type): "\(code): \(type)"
        default: code
        }
    }
}
