import Fluent
import Foundation
import Synchronization
import Vapor

/// Runs `AppleRevocationRetries.retryDue` every minute while latchd serves (when Apple's team key
/// is configured and this instance runs background tasks).
final class AppleRevocationRetryWorker: LifecycleHandler, Sendable {
    static let interval: Duration = .seconds(60)

    private let task = Mutex<Task<Void, Never>?>(nil)

    func didBootAsync(_ application: Application) async throws {
        guard let endpoint = application.identityServices.appleTokens else { return }
        let latch = application.latch
        let logger = application.logger
        let database: @Sendable () -> any Database = { application.db }
        task.withLock { running in
            running = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.interval)
                    guard !Task.isCancelled else { return }
                    do {
                        try await AppleRevocationRetries.retryDue(
                            endpoint: endpoint, secrets: latch.secrets, now: latch.clock.epochSeconds, on: database(),
                            logger: logger)
                    } catch {
                        logger.warning(
                            "Apple revocation retries failed this round: \(String(reflecting: type(of: error)))")
                    }
                }
            }
        }
    }

    func shutdownAsync(_ application: Application) async {
        let running = task.withLock { running in
            defer { running = nil }
            return running
        }
        running?.cancel()
        await running?.value
    }
}
