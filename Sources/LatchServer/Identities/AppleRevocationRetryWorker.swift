import Fluent
import Vapor

/// Runs `AppleRevocationRetries.retryDue` every minute while latchd serves (when Apple's team key
/// is configured and this instance runs background tasks).
enum AppleRevocationRetryWorker {
    static let interval: Duration = .seconds(60)

    static func task() -> PeriodicTask {
        PeriodicTask(every: interval, name: "Apple revocation retries") { application in
            guard let endpoint = application.identityServices.appleTokens else { return }
            let latch = application.latch
            try await AppleRevocationRetries.retryDue(
                endpoint: endpoint, secrets: latch.secrets, now: latch.clock.epochSeconds, on: application.db,
                logger: application.logger)
        }
    }
}
