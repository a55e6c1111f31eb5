import CoreMetrics
import FluentKit
import NIOCore

extension LatchMetrics {
    /// Gauges read from live values at each scrape:
    /// - `latch_bcrypt_queue_depth`: password checks and hashes running or waiting for a thread
    ///   (`LATCH_BCRYPT_QUEUE` places at most; one more answers 429);
    /// - `latch_database_connection_wait_seconds`: how long getting a connection from the database
    ///   pool took, measured by taking one (no query) — the wait a request would see at that moment
    ///   (Fluent counts no waits of its own);
    /// - `latch_database_up`: 1 when that connection came, else 0.
    func sampleLiveValues(database: any Database, passwords: PasswordHasher) {
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
    }
}
