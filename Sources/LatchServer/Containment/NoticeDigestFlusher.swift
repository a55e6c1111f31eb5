import Fluent
import Foundation
import Synchronization
import Vapor

/// Runs `NoticeDigests.flushDue` every 10 seconds while latchd serves (on every instance that runs
/// background tasks, when `LATCH_NOTICE_DIGEST_SECONDS` is not 0): a digest goes out at most this long
/// after its window has passed.
final class NoticeDigestFlusher: LifecycleHandler, Sendable {
    static let interval: Duration = .seconds(10)

    private let task = Mutex<Task<Void, Never>?>(nil)

    func didBootAsync(_ application: Application) async throws {
        let latch = application.latch
        let logger = application.logger
        let database: @Sendable () -> any Database = { application.db }
        task.withLock { running in
            running = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.interval)
                    guard !Task.isCancelled else { return }
                    do {
                        try await NoticeDigests.flushDue(
                            services: latch, now: latch.clock.epochSeconds, on: database(), logger: logger)
                    } catch {
                        logger.warning("notice digests failed this round: \(String(reflecting: type(of: error)))")
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
