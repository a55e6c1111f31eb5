import FluentKit
import SQLKit
import Synchronization

/// `GET /health/ready`'s database check: `SELECT 1`, given `timeout` at most (a database that drops
/// packets instead of refusing must not hold the probe until the pool's own 10-second limit).
///
/// Probes that arrive while one is running share its answer: a load balancer polling every
/// instance, or a flood of unauthenticated requests, costs the database at most one query at a
/// time per instance — without a rate limit, whose 429 would make a balancer take a healthy
/// instance out.
actor ReadinessCheck {
    let timeout: Duration
    private var running: Task<Bool, Never>?

    init(timeout: Duration = .seconds(2)) {
        self.timeout = timeout
    }

    /// Returns when the database answered; throws 503 (`database_unreachable`) when it did not.
    func check(_ database: any Database) async throws {
        let probe: Task<Bool, Never>
        if let running {
            probe = running
        } else {
            let timeout = self.timeout
            probe = Task { await Self.databaseAnswers(database, within: timeout) }
            running = probe
        }
        let answered = await probe.value
        if running == probe { running = nil }
        guard answered else { throw LatchError.databaseUnreachable }
    }

    /// Whether `SELECT 1` succeeds within `timeout`. Not a task group: a group waits for all its
    /// children, and a query stuck in the driver does not end when its task is cancelled.
    private static func databaseAnswers(_ database: any Database, within timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            let nanoseconds =
                timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            let deadline = database.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { answer.give(false) }
            Task {
                do {
                    try await database.sql.raw("SELECT 1").run()
                    answer.give(true)
                } catch {
                    // The error's type only: a driver's text may echo connection details.
                    database.logger.warning(
                        "readiness: the database did not answer",
                        metadata: ["error_type": "\(String(reflecting: type(of: error)))"])
                    answer.give(false)
                }
                deadline.cancel()
            }
        }
    }
}

/// Resumes a continuation with the first answer given; later ones are dropped.
private final class FirstAnswer: Sendable {
    private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ answer: Bool) {
        let waiting = continuation.withLock { current in
            defer { current = nil }
            return current
        }
        waiting?.resume(returning: answer)
    }
}
