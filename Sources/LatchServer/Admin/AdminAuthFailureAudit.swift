import Synchronization

/// How many failed admin authentications reach the audit log (issue 20 §6): each is worth a row, but
/// a flood of wrong keys must not become a flood of rows. Per client 1 row every 10 seconds (burst
/// 5) and for everybody 1 a second (burst 60), in this instance's memory; failures past that are
/// still refused (and priced by `RateLimitedAction.adminAuth`), only not written.
final class AdminAuthFailureAudit: Sendable {
    static let perClient = TokenRate(perSecond: 0.1, burst: 5)
    static let global = TokenRate(perSecond: 1, burst: 60)

    private struct State {
        var clients: [String: TokenBucket] = [:]
        var global: TokenBucket?
    }

    private let state = Mutex(State())
    /// Client buckets kept at most (idle ones are forgotten first, then all: the bound errs towards writing).
    private let maximumTrackedClients = 10_000

    /// Whether a failed authentication of `client` at `now` gets its audit row (and takes a token for it).
    func admits(client: String, now: Double) -> Bool {
        state.withLock { state in
            var clientBucket = state.clients[client] ?? TokenBucket(rate: Self.perClient, now: now)
            var globalBucket = state.global ?? TokenBucket(rate: Self.global, now: now)
            guard clientBucket.wait(rate: Self.perClient, now: now) == 0,
                globalBucket.wait(rate: Self.global, now: now) == 0
            else { return false }
            clientBucket.take(rate: Self.perClient, now: now)
            globalBucket.take(rate: Self.global, now: now)
            if state.clients[client] == nil, state.clients.count >= maximumTrackedClients {
                state.clients = state.clients.filter { !$0.value.isIdle(rate: Self.perClient, now: now) }
                if state.clients.count >= maximumTrackedClients { state.clients = [:] }
            }
            state.clients[client] = clientBucket
            state.global = globalBucket
            return true
        }
    }
}
