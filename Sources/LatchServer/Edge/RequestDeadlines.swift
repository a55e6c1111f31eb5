import NIOCore

/// When the request arriving on one connection must be whole (issue 41 §3 E-X1): its head within
/// `headerTimeout` of its first byte, its body within `bodyTimeout` of its head. The idle timeout counts
/// only silence, so a client that trickles one byte a second would otherwise hold a connection forever.
/// Between requests (nothing of the next one has arrived) there is no deadline: the idle timeout rules.
///
/// A pure state machine (STYLE §1): `RequestDeadlineHandler` reports the events and runs the actions.
struct RequestDeadlines {
    /// What the driver does next.
    enum Action: Equatable {
        /// Arm the one timer for `deadline` (replacing any armed one).
        case arm(NIODeadline)
        /// Disarm the timer.
        case disarm
        /// The request is late: close the connection.
        case close
        case none
    }

    private enum State {
        /// No byte of a request has arrived since the last one was whole.
        case betweenRequests
        /// Bytes of a request's head arrived; the head must be whole by `deadline`.
        case readingHead(deadline: NIODeadline)
        /// The head arrived; the body must be whole by `deadline`.
        case readingBody(deadline: NIODeadline)
        /// The connection was closed for a late request; nothing more happens.
        case closed
    }

    private var state = State.betweenRequests
    let headerTimeout: TimeAmount
    let bodyTimeout: TimeAmount

    init(headerTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
    }

    /// Bytes arrived from the client (before they are decoded).
    mutating func bytesArrived(now: NIODeadline) -> Action {
        switch state {
        case .betweenRequests:
            let deadline = now + headerTimeout
            state = .readingHead(deadline: deadline)
            return .arm(deadline)
        case .readingHead, .readingBody, .closed:
            return .none
        }
    }

    /// A request's head was decoded (it may come in the same read as the previous request's end,
    /// pipelined, with no new bytes in between: it still starts the body's deadline).
    mutating func headArrived(now: NIODeadline) -> Action {
        switch state {
        case .betweenRequests, .readingHead, .readingBody:
            // `.readingBody`: NIO's decoder hands over a head only after the previous request's end, so this
            // does not happen; it is tolerated (a new body deadline), never a trap a client could reach.
            let deadline = now + bodyTimeout
            state = .readingBody(deadline: deadline)
            return .arm(deadline)
        case .closed:
            return .none
        }
    }

    /// A request arrived whole (its end was decoded).
    mutating func endArrived() -> Action {
        switch state {
        case .readingBody, .readingHead, .betweenRequests:
            state = .betweenRequests
            return .disarm
        case .closed:
            return .none
        }
    }

    /// The armed timer fired at `now`.
    mutating func timerFired(now: NIODeadline) -> Action {
        switch state {
        case .readingHead(let deadline), .readingBody(let deadline):
            guard now >= deadline else { return .arm(deadline) }
            state = .closed
            return .close
        case .betweenRequests, .closed:
            // A timer disarmed as it fired: nothing is late.
            return .none
        }
    }
}
