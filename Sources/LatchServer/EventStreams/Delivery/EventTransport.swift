/// How the worker reaches a receiver (issue 42 §3): `ReceiverClient` in latchd (URL rules, a pinned address,
/// timeouts, a capped answer), a recorder in tests.
protocol EventTransport: Sendable {
    /// POSTs `request` to `url`; never throws: a failure is an outcome, with a short log-safe reason.
    func deliver(_ request: EventDeliveryRequest, to url: String) async -> EventTransportOutcome
    /// Closes its connections (latchd stops).
    func shutdown() async
}

extension EventTransport {
    func shutdown() async {}
}

/// What came of one attempt.
enum EventTransportOutcome: Sendable, Equatable {
    /// The receiver answered `status`; `body` is the start of its answer (for the delivery log).
    case answered(status: Int, body: String)
    /// No answer: the address was refused, the connection failed or timed out. `reason` names which,
    /// never a header or a secret.
    case failed(reason: String)
    /// Nothing to send: no CAEP or RISC event fits the type, or none the SSF receiver asked for. The delivery is
    /// done (a retry would make no SET either, and would hold back the user's next events).
    case nothingToSend

    /// Whether the delivery is done: the receiver answered 2xx (RFC 8935's 202 among them), or there was
    /// nothing to send.
    var accepted: Bool {
        switch self {
        case .answered(let status, _): (200..<300).contains(status)
        case .failed: false
        case .nothingToSend: true
        }
    }
}
