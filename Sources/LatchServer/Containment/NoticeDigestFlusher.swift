import FluentKit
import Logging

/// Runs `NoticeDigests.flushDue` every 10 seconds while latchd serves (on every instance that runs
/// background tasks, when `LATCH_NOTICE_DIGEST_SECONDS` is not 0): a digest goes out at most this long
/// after its window has passed.
enum NoticeDigestFlusher {
    static let interval: Duration = .seconds(10)

    static func task(
        services latch: LatchServices, database: @escaping @Sendable () -> any Database, logger: Logger
    ) -> PeriodicTask {
        PeriodicTask(every: interval, name: "notice digests", logger: logger) {
            try await NoticeDigests.flushDue(
                services: latch, now: latch.clock.epochSeconds, on: database(), logger: logger)
        }
    }
}
