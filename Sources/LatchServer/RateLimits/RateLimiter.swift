import Synchronization

/// The token buckets of `RateLimits`, in this instance's memory: per action, one bucket per client
/// key and one for all clients. A request is admitted only when both have a token, and then takes
/// one from each; refused, it takes none, and learns how long to wait. At most
/// `maximumTrackedClients` client buckets are kept (see `evict`).
final class RateLimiter: Sendable {
    private struct ClientKey: Hashable {
        let action: RateLimitedAction
        let client: String
    }

    private struct State {
        var clients: [ClientKey: TokenBucket] = [:]
        var global: [RateLimitedAction: TokenBucket] = [:]
    }

    let limits: RateLimits
    private let state = Mutex(State())

    init(limits: RateLimits) { self.limits = limits }

    /// Charges one request of `action` from `client` at `now`: nil when admitted, otherwise the
    /// whole seconds to wait (at least 1).
    func admit(_ action: RateLimitedAction, client: String, now: Double) -> Int? {
        let rule = limits.rule(for: action)
        let key = ClientKey(action: action, client: client)
        return state.withLock { state in
            var clientBucket = state.clients[key] ?? TokenBucket(rate: rule.perClient, now: now)
            var globalBucket = state.global[action] ?? TokenBucket(rate: rule.global, now: now)
            let wait = max(
                clientBucket.wait(rate: rule.perClient, now: now), globalBucket.wait(rate: rule.global, now: now))
            guard wait == 0 else {
                return wait.isFinite ? max(1, Int(wait.rounded(.up))) : 3600
            }
            clientBucket.take(rate: rule.perClient, now: now)
            globalBucket.take(rate: rule.global, now: now)
            if state.clients[key] == nil, state.clients.count >= limits.maximumTrackedClients {
                evict(&state.clients, now: now)
            }
            state.clients[key] = clientBucket
            state.global[action] = globalBucket
            return nil
        }
    }

    /// Gives back the token a request of `action` from `client` took (it turned out not to be what the
    /// limit is about, e.g. an admin request whose key was right). Never fills a bucket past its burst.
    func refund(_ action: RateLimitedAction, client: String, now: Double) {
        let rule = limits.rule(for: action)
        let key = ClientKey(action: action, client: client)
        state.withLock { state in
            state.clients[key]?.giveBack(rate: rule.perClient, now: now)
            state.global[action]?.giveBack(rate: rule.global, now: now)
        }
    }

    /// How many client buckets are kept (for tests of the memory bound).
    var trackedClients: Int { state.withLock { $0.clients.count } }

    /// Makes room: drops every idle bucket (full again, so no different from a new one); when that
    /// is not enough, the least recently used half, so the work stays amortised under a flood of
    /// new clients (those dropped start full again: the bound errs towards admitting).
    private func evict(_ clients: inout [ClientKey: TokenBucket], now: Double) {
        clients = clients.filter { key, bucket in !bucket.isIdle(rate: limits.rule(for: key.action).perClient, now: now)
        }
        guard clients.count >= limits.maximumTrackedClients else { return }
        let byAge = clients.sorted { $0.value.updatedAt < $1.value.updatedAt }
        for (key, _) in byAge.prefix(max(1, clients.count / 2)) { clients[key] = nil }
    }
}
