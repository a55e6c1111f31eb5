import Synchronization

/// Counts a listener's open connections, in total and per client address, and admits a new one only
/// below both caps (the API listener's `ConnectionLimits`, the metrics listener's maximum). Thread-safe:
/// connections are accepted and closed on every event loop.
///
///     let counter = ConnectionCounter(maximum: 192, maximumPerAddress: 24)
///     switch counter.admit("203.0.113.7") {
///     case .admitted: channel.closeFuture.whenComplete { _ in counter.release("203.0.113.7") }
///     case .overTotal, .overAddress: channel.close(promise: nil)
///     }
final class ConnectionCounter: Sendable {
    /// What `admit` decided.
    enum Admission: Equatable, Sendable {
        /// Counted; call `release` with the same address when it closes.
        case admitted
        /// `maximum` connections are open already.
        case overTotal
        /// `maximumPerAddress` connections from this address are open already.
        case overAddress
    }

    let maximum: Int
    /// nil: no cap per address (the metrics listener: one scraper).
    let maximumPerAddress: Int?
    private let counts = Mutex(Counts())

    private struct Counts {
        var total = 0
        var perAddress: [String: Int] = [:]
    }

    init(maximum: Int, maximumPerAddress: Int? = nil) {
        self.maximum = maximum
        self.maximumPerAddress = maximumPerAddress
    }

    /// Counts one more connection from `address` (the client's key: an IPv4 address, an IPv6 /64; nil:
    /// counted in the total only, e.g. a trusted proxy), unless a cap is reached.
    func admit(_ address: String?) -> Admission {
        counts.withLock { counts in
            guard counts.total < maximum else { return .overTotal }
            if let address, let perAddressCap = maximumPerAddress {
                guard counts.perAddress[address, default: 0] < perAddressCap else { return .overAddress }
                counts.perAddress[address, default: 0] += 1
            }
            counts.total += 1
            return .admitted
        }
    }

    /// Forgets one admitted connection from `address`.
    func release(_ address: String?) {
        counts.withLock { counts in
            counts.total -= 1
            guard maximumPerAddress != nil, let address, let open = counts.perAddress[address] else { return }
            counts.perAddress[address] = open > 1 ? open - 1 : nil
        }
    }

    /// Connections open now: in total, and from `address`.
    func open(from address: String? = nil) -> (total: Int, fromAddress: Int) {
        counts.withLock { counts in (counts.total, address.flatMap { counts.perAddress[$0] } ?? 0) }
    }
}
