import Logging
import ServiceLifecycle

/// A background loop of latchd, as a swift-service-lifecycle service (issue 29 §2): runs `round` every
/// `interval` (first after one interval), logs a failed round as a warning naming only the error's type,
/// and ends at the graceful shutdown of its service group.
struct PeriodicTask: Service {
    let interval: Duration
    /// What a failed round's warning calls this task.
    let name: String
    let logger: Logger
    let round: @Sendable () async throws -> Void

    init(every interval: Duration, name: String, logger: Logger, round: @escaping @Sendable () async throws -> Void) {
        self.interval = interval
        self.name = name
        self.logger = logger
        self.round = round
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                do {
                    try await round()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("\(name) failed this round: \(String(reflecting: type(of: error)))")
                }
            }
        }
    }
}
