/// What one SMTP transaction carries: the envelope sender and recipients, and the message text
/// (RFC 5322 headers and body; line ends are normalised to CRLF and dots stuffed on the wire).
struct SMTPEnvelope: Sendable {
    var from: String
    var recipients: [String]
    var message: String
    /// The name latchd gives itself in EHLO.
    var clientName: String = "localhost"
}
