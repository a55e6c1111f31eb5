import CoreMetrics
import FluentKit
import NIOCore
import Synchronization

extension LatchMetrics {
    /// Gauges read from live values at each scrape:
    /// - `latch_bcrypt_queue_depth`: password checks and hashes running or waiting for a thread
    ///   (`LATCH_BCRYPT_QUEUE` places at most; one more answers 429);
    /// - `latch_database_connection_wait_seconds`: how long getting a connection from the database
    ///   pool took, measured by taking one (no query) — the wait a request would see at that moment
    ///   (Fluent counts no waits of its own);
    /// - `latch_database_up`: 1 when that connection came, else 0;
    /// - on SQLite, `latch_sqlite_hand_offs_total` and `latch_sqlite_checkpoints_total`: statements of the
    ///   prepared connections that would have waited on an event loop and ran on a pool thread instead, and the
    ///   checkpoints those threads ran (`PreparedSQLite`).
    func sampleLiveValues(database: any Database, passwords: PasswordHasher, prepared: PreparedSQLite? = nil) {
        let bcryptDepth = gauge("latch_bcrypt_queue_depth")
        sampleBeforeScrape { bcryptDepth.record(passwords.placesInUse) }

        let connectionWait = gauge("latch_database_connection_wait_seconds")
        let databaseUp = gauge("latch_database_up")
        sampleBeforeScrape {
            let start = NIODeadline.now()
            do {
                let waited = try await database.withConnection { _ in NIODeadline.now() - start }
                connectionWait.record(Double(waited.nanoseconds) / 1e9)
                databaseUp.record(1)
            } catch {
                databaseUp.record(0)
            }
        }
        if let prepared {
            let handOffs = counter("latch_sqlite_hand_offs_total")
            let checkpoints = counter("latch_sqlite_checkpoints_total")
            // The pool keeps totals; each scrape adds what happened since the last one.
            let reported = Mutex((handOffs: 0, checkpoints: 0))
            sampleBeforeScrape {
                let now = (handOffs: prepared.handOffs, checkpoints: prepared.checkpoints)
                let last = reported.withLock { last in
                    defer { last = now }
                    return last
                }
                handOffs.increment(by: now.handOffs - last.handOffs)
                checkpoints.increment(by: now.checkpoints - last.checkpoints)
            }
        }
    }
}
