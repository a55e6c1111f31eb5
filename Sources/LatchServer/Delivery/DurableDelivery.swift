import CoreMetrics
import FluentKit
import Foundation
import LatchCore

/// One channel's messages through the durable queue: `deliver` turns the message into its carrier's
/// payload (a mail is rendered here, once), stores it as a `delivery_jobs` row (one INSERT) and wakes
/// this instance's `DeliveryWorker`. Returns at once; throws 503 `delivery_queue_full` when the
/// unsent jobs of the channel's lane (`OutgoingMessage.lane`: codes, notices) reach the cap.
///
/// Queued on a transaction's database, the job commits (or rolls back) with the change that caused it;
/// the worker is woken once more shortly after, by when the transaction has normally committed (the
/// worker's poll picks it up otherwise).
struct DurableDelivery: MessageDelivery {
    let store: DeliveryJobStore
    let worker: DeliveryWorker
    let database: @Sendable () -> any Database
    let clock: LatchClock
    let payload: @Sendable (OutgoingMessage) -> DeliveryJobPayload
    /// The channel's `latch_deliveries_total` (this counts `refused`: the queue was full).
    var metrics = DeliveryMetrics.disabled

    func deliver(_ message: OutgoingMessage) async throws {
        try await deliver(message, on: database())
    }

    /// The row `deliver` would write — sealed, capacity-checked, inserted — and taken back, in one
    /// committed transaction of its own; nothing is sent. `deliverAsRehearsed` is its other side: the
    /// same statements (its `DELETE` finds no row) and the same commit, so `password/forgot` does the
    /// same database work for an unknown address as for an account (issue 20 §3, issue 28 §2: a
    /// rolled-back rehearsal was measurably faster than a committed hand-over).
    func rehearse(_ message: OutgoingMessage, on database: any Database) async throws {
        try await handOver(message, keep: false, on: database)
    }

    func deliverAsRehearsed(_ message: OutgoingMessage, on database: any Database) async throws {
        try await handOver(message, keep: true, on: database)
    }

    private func handOver(_ message: OutgoingMessage, keep: Bool, on database: any Database) async throws {
        let store = self.store
        let payload = self.payload(message)
        let now = clock.epochSeconds
        do {
            // The insert comes first: a transaction that writes first never needs SQLite's lock upgrade.
            try await database.tracedTransaction { transaction in
                let id = try await store.enqueue(payload, lane: message.lane, now: now, on: transaction)
                try await store.discard(keep ? UUID() : id, on: transaction)
            }
        } catch let error as LatchError where error.reasons == LatchError.deliveryQueueFull.reasons {
            metrics.refused.increment()
            throw error
        }
        // The worker is not woken: its poll (`LatchConfig.deliveryPollInterval`, 1 s) picks the job up, so the
        // send's work does not follow an account's request more closely than an unknown address's.
    }

    func deliver(_ message: OutgoingMessage, on database: any Database) async throws {
        do {
            try await store.enqueue(payload(message), lane: message.lane, now: clock.epochSeconds, on: database)
        } catch let error as LatchError where error.reasons == LatchError.deliveryQueueFull.reasons {
            metrics.refused.increment()
            throw error
        }
        let worker = self.worker
        if database.inTransaction {
            Task {
                try? await Task.sleep(for: .milliseconds(50))
                await worker.wake()
            }
        } else {
            await worker.wake()
        }
    }
}
