import FluentKit
import Logging

/// Runs `AppleRevocationRetries.retryDue` every minute while latchd serves (when Apple's team key
/// is configured and this instance runs background tasks).
enum AppleRevocationRetryWorker {
    static let interval: Duration = .seconds(60)

    static func task(
        endpoint: AppleTokenEndpoint, services latch: LatchServices, database: @escaping @Sendable () -> any Database,
        logger: Logger
    ) -> PeriodicTask {
        PeriodicTask(every: interval, name: "Apple revocation retries", logger: logger) {
            try await AppleRevocationRetries.retryDue(
                endpoint: endpoint, secrets: latch.secrets, now: latch.clock.epochSeconds, on: database(),
                logger: logger)
        }
    }
}
