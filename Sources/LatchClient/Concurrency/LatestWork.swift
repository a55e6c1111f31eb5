/// Drops the late results of abandoned work: the one idiom every driver uses for it
/// (`BiometricSignInDriver`, `VerificationDriver`, and `RefreshCoordinator` for refreshes and vault
/// writes that a sign-in or sign-out overtook).
///
/// A driver takes a ticket with `start()` before it awaits something (a prompt, a request, a signature),
/// and after the `await` asks `isCurrent(ticket)`. A newer `start()` or an `abandon()` in between (the
/// user chose another way, the page timed out or was cancelled) makes the ticket stale: the result
/// belongs to nobody, and the driver drops it without feeding its state machine. `finish(ticket)`
/// accepts a result at most once and ends the work.
///
///     var prompt = LatestWork()
///     let ticket = prompt.start()
///     let result = await authenticator.evaluate(…)
///     guard prompt.finish(ticket) else { return }   // superseded or abandoned meanwhile: dropped
///     feed(machine, result)
///
/// It is a value: keep it in the driver's isolated state (an actor, or the main actor).
struct LatestWork: Sendable {
    /// Names one start.
    struct Ticket: Sendable, Hashable {
        fileprivate let number: UInt64
    }

    private var latest: UInt64 = 0
    /// Whether the latest start is still running (neither finished nor abandoned).
    private(set) var isRunning = false

    init() {}

    /// Starts new work; every earlier ticket becomes stale.
    mutating func start() -> Ticket {
        latest += 1
        isRunning = true
        return Ticket(number: latest)
    }

    /// Whether `ticket` names the latest start and it is still running.
    func isCurrent(_ ticket: Ticket) -> Bool {
        isRunning && ticket.number == latest
    }

    /// Accepts the result of `ticket`'s work: `true` once when it is current (the work ends), `false`
    /// for a late result.
    mutating func finish(_ ticket: Ticket) -> Bool {
        guard isCurrent(ticket) else { return false }
        isRunning = false
        return true
    }

    /// Abandons the running work: its result will be dropped. Returns whether something was running.
    @discardableResult
    mutating func abandon() -> Bool {
        defer {
            latest += 1
            isRunning = false
        }
        return isRunning
    }
}
