import FluentKit
import Foundation

/// Approval pushes through the durable delivery queue (`delivery_jobs`, channel `push`): queued on the
/// caller's database (a transaction's: they commit with the verification that asks), sent by the
/// `DeliveryWorker` with `APNsSender` as the channel's carrier, retried with the queue's backoff.
struct APNsPushQueue: Sendable {
    /// `delivery_jobs.channel` of pushes.
    static let channel = "push"

    let store: DeliveryJobStore
    let worker: DeliveryWorker
    /// The queue's time (the wall clock, as for mail).
    let clock: LatchClock

    /// Queues `push` in the codes lane (an approval waits for it); 503 `delivery_queue_full` when full.
    func enqueue(_ push: APNsPush, on database: any Database) async throws {
        try await store.enqueue(.push(push), lane: .code, now: clock.epochSeconds, on: database)
        let worker = self.worker
        if database.inTransaction {
            // Woken again shortly after, by when the transaction has normally committed (the poll otherwise).
            Task {
                try? await Task.sleep(for: .milliseconds(50))
                await worker.wake()
            }
        } else {
            await worker.wake()
        }
    }
}
