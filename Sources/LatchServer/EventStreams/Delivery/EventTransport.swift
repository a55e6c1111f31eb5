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

    /// Whether the receiver took the event: any 2xx (RFC 8935's 202 among them).
    var accepted: Bool {
        if case .answered(let status, _) = self { return (200..<300).contains(status) }
        return false
    }
}
