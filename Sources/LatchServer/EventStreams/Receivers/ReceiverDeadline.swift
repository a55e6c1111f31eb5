import NIOCore
import Synchronization

/// Runs an attempt with a deadline that holds whatever the attempt waits on (issue 42 §3): at the
/// deadline the caller gets `.timeout` and the attempt is cancelled, even when it sits in a call that
/// ignores cancellation (a `getaddrinfo` on a pool thread), which then finishes unobserved.
enum ReceiverDeadline {
    static func run<Value: Sendable>(
        within timeout: TimeAmount, _ operation: @escaping @Sendable () async throws(ReceiverFailure) -> Value
    ) async throws(ReceiverFailure) -> Value {
        let race = Race<Value>()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.start(continuation, timeout: timeout, operation)
            }
        } onCancel: {
            race.finish(.failure(.cancelled))
        }
        return try outcome.get()
    }

    /// The first of the attempt, the timer and a cancellation to finish resumes the caller; the others are
    /// cancelled and their outcomes dropped.
    private final class Race<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result<Value, ReceiverFailure>, Never>?
            var tasks: [Task<Void, Never>] = []
            /// Set when the outcome came before the continuation (a cancellation at once).
            var early: Result<Value, ReceiverFailure>?
        }

        private let state = Mutex(State())

        func start(
            _ continuation: CheckedContinuation<Result<Value, ReceiverFailure>, Never>, timeout: TimeAmount,
            _ operation: @escaping @Sendable () async throws(ReceiverFailure) -> Value
        ) {
            let early = state.withLock { state in
                if state.early == nil { state.continuation = continuation }
                return state.early
            }
            if let early {
                continuation.resume(returning: early)
                return
            }
            let work = Task {
                do throws(ReceiverFailure) {
                    finish(.success(try await operation()))
                } catch {
                    finish(.failure(error))
                }
            }
            let timer = Task {
                try? await Task.sleep(for: .nanoseconds(timeout.nanoseconds))
                if !Task.isCancelled { finish(.failure(.timeout)) }
            }
            let finished = state.withLock { state in
                guard state.continuation != nil else { return true }
                state.tasks = [work, timer]
                return false
            }
            if finished {
                work.cancel()
                timer.cancel()
            }
        }

        func finish(_ outcome: Result<Value, ReceiverFailure>) {
            let (continuation, tasks) = state.withLock { state in
                defer {
                    state.continuation = nil
                    state.tasks = []
                }
                if state.continuation == nil, state.early == nil { state.early = outcome }
                return (state.continuation, state.tasks)
            }
            continuation?.resume(returning: outcome)
            for task in tasks { task.cancel() }
        }
    }
}
