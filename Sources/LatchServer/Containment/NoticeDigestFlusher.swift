import Fluent
import Vapor

/// Runs `NoticeDigests.flushDue` every 10 seconds while latchd serves (on every instance that runs
/// background tasks, when `LATCH_NOTICE_DIGEST_SECONDS` is not 0): a digest goes out at most this long
/// after its window has passed.
enum NoticeDigestFlusher {
    static let interval: Duration = .seconds(10)

    static func task() -> PeriodicTask {
        PeriodicTask(every: interval, name: "notice digests") { application in
            let latch = application.latch
            try await NoticeDigests.flushDue(
                services: latch, now: latch.clock.epochSeconds, on: application.db, logger: application.logger)
        }
    }
}
