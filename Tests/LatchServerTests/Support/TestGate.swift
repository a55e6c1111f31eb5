import Synchronization

/// Work that waits until the test opens the gate, and a way for the test to wait until a number of
/// callers are inside: tests hold a queue's places or a server's answer exactly as long as they need,
/// instead of sleeping "long enough" (issue 22 §8). Nothing polls.
final class TestGate: Sendable {
    private struct State {
        var entered = 0
        var isOpen = false
        var waitingToPass: [CheckedContinuation<Void, Never>] = []
        var waitingForEntries: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    /// How many callers have entered so far.
    var entered: Int { state.withLock { $0.entered } }

    /// Counts this caller as entered, then returns once the gate is open.
    func enterAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (passNow, ready) = state.withLock { state in
                state.entered += 1
                if !state.isOpen { state.waitingToPass.append(continuation) }
                let entered = state.entered
                let ready = state.waitingForEntries.filter { $0.count <= entered }.map(\.continuation)
                state.waitingForEntries.removeAll { $0.count <= entered }
                return (state.isOpen, ready)
            }
            for waiter in ready { waiter.resume() }
            if passNow { continuation.resume() }
        }
    }

    /// Returns once `count` callers have entered.
    func waitUntilEntered(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let already = state.withLock { state in
                if state.entered >= count { return true }
                state.waitingForEntries.append((count, continuation))
                return false
            }
            if already { continuation.resume() }
        }
    }

    /// Lets every waiting and every later caller through.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waitingToPass = [] }
            return state.waitingToPass
        }
        for waiter in waiting { waiter.resume() }
    }
}
