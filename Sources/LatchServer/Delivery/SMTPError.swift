/// Why a mail was not accepted. Descriptions name the step and the reply code only: never an
/// address, a reply text (servers echo addresses) or the message.
enum SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered `code` at `step` (4xx temporary, 5xx permanent).
    case rejected(step: String, code: Int)
    /// No reply to `step` within the step timeout.
    case timeout(step: String)
    /// The connection failed, closed early, or TLS failed.
    case connection(String)
    /// The server's bytes are not SMTP replies.
    case malformedReply
    /// Credentials are configured but the server offers neither AUTH PLAIN nor AUTH LOGIN.
    case authenticationUnsupported
    /// Credentials would go over an unencrypted connection to a host that is not loopback.
    case refusedPlaintextAuthentication
    /// An address contains characters SMTP cannot carry (CR, LF, angle brackets).
    case invalidAddress
    /// The server offers no STARTTLS, but the configuration requires TLS (`smtp://` to a host that is
    /// not loopback): a configuration problem, not retried.
    case startTLSUnavailable

    /// Whether the same mail may succeed later (4xx replies, timeouts, connection trouble).
    var isTemporary: Bool {
        switch self {
        case .rejected(_, let code): (400..<500).contains(code)
        case .timeout, .connection, .malformedReply: true
        case .authenticationUnsupported, .refusedPlaintextAuthentication, .invalidAddress, .startTLSUnavailable: false
        }
    }

    var description: String {
        switch self {
        case .rejected(let step, let code): "\(step) answered \(code)"
        case .timeout(let step): "no answer to \(step) in time"
        case .connection(let reason): "connection failed: \(reason)"
        case .malformedReply: "the server's reply is not SMTP"
        case .authenticationUnsupported: "the server offers neither AUTH PLAIN nor AUTH LOGIN"
        case .refusedPlaintextAuthentication: "the server offers no STARTTLS; credentials are not sent in the clear"
        case .invalidAddress: "an address cannot be carried by SMTP"
        case .startTLSUnavailable:
            "configuration error: the server offers no STARTTLS, and smtp:// to a host that is not loopback sends only over TLS (LATCH_SMTP_URL smtp+insecure:// allows plain SMTP)"
        }
    }
}
