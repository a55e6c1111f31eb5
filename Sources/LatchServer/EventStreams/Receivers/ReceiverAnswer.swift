/// What a receiver answered (issue 42 §3): its status, any status (a 3xx is reported, never followed), and
/// the start of its body for the delivery log.
struct ReceiverAnswer: Sendable, Hashable {
    /// The HTTP status code.
    let status: Int
    /// At most `ReceiverClientSettings.answerBodyLimit` bytes of the body, as UTF-8 (invalid bytes replaced).
    let body: String

    /// Whether the receiver took the event: any 2xx (RFC 8935's 202 among them).
    var accepted: Bool { (200..<300).contains(status) }
}
