import Foundation

/// The current ``SessionState`` and everyone listening to it. A new listener hears the current state
/// first; a state equal to the current one is not sent again, so each change is announced exactly once.
// @unchecked Sendable: all mutable state is in `listeners`, read and written only under `lock`.
// (An NSLock rather than Synchronization's Mutex, which needs iOS 18 / macOS 15.)
final class SessionStateBroadcast: @unchecked Sendable {
    private struct Listeners {
        var state: SessionState
        var continuations: [UInt64: AsyncStream<SessionState>.Continuation] = [:]
        var nextID: UInt64 = 0
    }

    private let lock = NSLock()
    private var listeners: Listeners

    init(_ initial: SessionState = .signedOut) {
        listeners = Listeners(state: initial)
    }

    var current: SessionState { lock.withLock { listeners.state } }

    /// A stream of states, starting with the current one.
    func stream() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream<SessionState>.makeStream(bufferingPolicy: .unbounded)
        let id = lock.withLock {
            let id = listeners.nextID
            listeners.nextID += 1
            listeners.continuations[id] = continuation
            // Yielded under the lock, so no change can slip in between the current state and the next.
            continuation.yield(listeners.state)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.listeners.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Makes `state` current and announces it, unless it already is current. Returns whether it changed.
    @discardableResult
    func publish(_ state: SessionState) -> Bool {
        lock.withLock {
            guard listeners.state != state else { return false }
            listeners.state = state
            for continuation in listeners.continuations.values { continuation.yield(state) }
            return true
        }
    }

    deinit {
        // No other reference exists during deinit, so no lock is needed.
        for continuation in listeners.continuations.values { continuation.finish() }
    }
}
