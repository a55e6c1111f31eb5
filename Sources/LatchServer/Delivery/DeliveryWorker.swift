import CoreMetrics
import FluentKit
import Foundation
import Logging
import ServiceLifecycle

/// Sends the durable queue's jobs (`DeliveryJobStore`): one per latchd process, taking turns with any
/// other instance on the same database.
///
/// It claims due jobs of each channel it has a carrier for, up to the carrier's concurrency in each
/// lane (`DeliveryLane`: codes never wait for a send slot that notices hold), when
/// woken (`wake`: a job was queued here, or a send finished) and at least every `pollInterval` (jobs
/// queued by other instances, retries coming due, jobs of an instance that died). While sends run, it
/// renews their lease every third of `lease`. A temporary failure is released for another attempt
/// after the policy's backoff; a permanent one, or the last attempt, is logged and deleted. Logs name
/// the channel, the job and the attempt, never an address, a body or a code.
///
/// Times are the wall clock (`LatchClock.system` unless a test injects one): backoffs and leases are
/// waited out for real, and every instance compares them with its own clock.
actor DeliveryWorker: Service {
    private let store: DeliveryJobStore
    private let database: @Sendable () -> any Database
    private let carriers: [String: DeliveryCarrier]
    private let policy: RetryPolicy
    private let lease: Double
    private let pollInterval: Duration
    private let clock: LatchClock
    private let logger: Logger
    /// This process's name in `claimed_by`.
    nonisolated let workerID = "latchd-\(UUID().uuidString.lowercased())"

    /// Sends in flight by channel and lane.
    private var running: [Slot: Int] = [:]
    private var sends: [UUID: Task<Void, Never>] = [:]
    private var loop: Task<Void, Never>?
    private var stopped = false
    private var wakeRequested = false
    private var sleeper: CheckedContinuation<Void, Never>?
    private var napNumber = 0
    private var renewedAt = 0.0
    /// `latch_deliveries_total` of each channel (sent, retried, failed).
    private let metrics: [String: DeliveryMetrics]

    init(
        store: DeliveryJobStore, database: @escaping @Sendable () -> any Database, carriers: [DeliveryCarrier],
        policy: RetryPolicy, lease: Duration, pollInterval: Duration, clock: LatchClock, logger: Logger,
        metrics: [String: DeliveryMetrics] = [:]
    ) {
        self.metrics = metrics
        self.store = store
        self.database = database
        self.carriers = Dictionary(carriers.map { ($0.channel, $0) }, uniquingKeysWith: { first, _ in first })
        self.policy = policy
        self.lease = Double(lease.components.seconds) + Double(lease.components.attoseconds) / 1e18
        self.pollInterval = pollInterval
        self.clock = clock
        self.logger = logger
    }

    /// Starts claiming in the background.
    func start() {
        guard loop == nil, !stopped else { return }
        loop = Task { await self.claimUntilStopped() }
    }

    /// Looks for due jobs now (a job was just queued, or a slot freed).
    func wake() {
        if let sleeper {
            self.sleeper = nil
            sleeper.resume()
        } else {
            wakeRequested = true
        }
    }

    /// As a service (issue 29 §2): claims until the group's graceful shutdown, then `stop()`s, so queued
    /// mail stays queued for the next start or another instance.
    func run() async throws {
        start()
        try? await gracefulShutdown()
        await stop()
    }

    /// Stops claiming, cancels the sends in flight and releases their jobs, so another instance (or the
    /// next start) sends them without waiting for the lease to end.
    func stop() async {
        guard !stopped else { return }
        stopped = true
        wake()
        for send in sends.values { send.cancel() }
        sends = [:]
        await loop?.value
        do {
            try await store.releaseAll(claimedBy: workerID, on: database())
        } catch {
            logger.warning(
                "delivery: could not release this instance's jobs on stop; they are sent once their lease ends")
        }
    }

    private func claimUntilStopped() async {
        while !stopped {
            await claimDueJobs()
            await renewLeasesIfDue()
            await nap(for: pollInterval)
        }
    }

    /// A channel's lane: the unit of send slots.
    private struct Slot: Hashable {
        let channel: String
        let lane: DeliveryLane
    }

    private func claimDueJobs() async {
        // Codes first, so a code queued at the same moment as a notice is claimed first.
        for lane in DeliveryLane.allCases {
            for carrier in carriers.values {
                await claimDueJobs(of: Slot(channel: carrier.channel, lane: lane), carrier)
            }
        }
    }

    private func claimDueJobs(of slot: Slot, _ carrier: DeliveryCarrier) async {
        let free = carrier.concurrency - running[slot, default: 0]
        guard free > 0, !stopped else { return }
        let jobs: [DeliveryJobStore.ClaimedJob]
        let logger = self.logger
        do {
            jobs = try await store.claim(
                channel: carrier.channel, lane: slot.lane, by: workerID, limit: free, now: clock.epochSeconds,
                lease: lease, on: database()
            ) { count in
                logger.error(
                    "\(carrier.channel) not delivered: \(count) queued job(s) cannot be opened with this LATCH_SECRET_KEY; deleted",
                    metadata: ["channel": "\(carrier.channel)"])
            }
        } catch {
            logger.warning(
                "delivery: could not claim \(carrier.channel) jobs: \(String(reflecting: type(of: error)))")
            return
        }
        for job in jobs { start(job, in: slot, with: carrier) }
    }

    private func start(_ job: DeliveryJobStore.ClaimedJob, in slot: Slot, with carrier: DeliveryCarrier) {
        guard !stopped else { return }
        if sends.isEmpty { renewedAt = clock.epochSeconds } // the claim's lease is fresh
        running[slot, default: 0] += 1
        sends[job.id] = Task {
            let failure: (any Error)?
            do {
                try await carrier.send(job.payload)
                failure = nil
            } catch {
                failure = error
            }
            await self.finished(job, in: slot, failure: failure)
        }
    }

    private func finished(_ job: DeliveryJobStore.ClaimedJob, in slot: Slot, failure: (any Error)?) async {
        guard !stopped, sends.removeValue(forKey: job.id) != nil else { return }
        running[slot, default: 1] -= 1
        let channel = slot.channel
        let metadata: Logger.Metadata = ["channel": "\(channel)", "job": "\(job.id)", "attempt": "\(job.attempt)"]
        do {
            if let failure {
                let temporary = (failure as? any DeliveryFailure)?.isTemporary ?? true
                let reason = (failure as? any DeliveryFailure)?.description ?? String(describing: type(of: failure))
                if temporary, let delay = policy.delay(afterFailedAttempt: job.attempt) {
                    logger.warning("\(channel) delivery failed, will retry: \(reason)", metadata: metadata)
                    metrics[channel]?.retried.increment()
                    let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
                    try await store.retry(job.id, claimedBy: workerID, at: clock.epochSeconds + seconds, on: database())
                } else {
                    let why = temporary ? "gave up after \(job.attempt) attempts" : "permanent failure"
                    logger.error("\(channel) not delivered (\(why)): \(reason)", metadata: metadata)
                    metrics[channel]?.failed.increment()
                    try await store.finish(job.id, claimedBy: workerID, on: database())
                }
            } else {
                logger.info("\(channel) delivered", metadata: metadata)
                metrics[channel]?.sent.increment()
                try await store.finish(job.id, claimedBy: workerID, on: database())
            }
        } catch {
            // The job stays claimed until its lease ends, then it is tried again (a sent one: sent twice).
            logger.error(
                "delivery: could not record a job's outcome: \(String(reflecting: type(of: error)))", metadata: metadata
            )
        }
        wake()
    }

    private func renewLeasesIfDue() async {
        let now = clock.epochSeconds
        guard !sends.isEmpty, now - renewedAt >= lease / 3 else { return }
        renewedAt = now
        do {
            try await store.renew(claimedBy: workerID, until: now + lease, on: database())
        } catch {
            logger.warning("delivery: could not renew the lease of this instance's jobs")
        }
    }

    /// Waits `duration`, or less when woken.
    private func nap(for duration: Duration) async {
        if wakeRequested || stopped {
            wakeRequested = false
            return
        }
        napNumber += 1
        let number = napNumber
        let timer = Task {
            try? await Task.sleep(for: duration)
            self.endNap(number)
        }
        await withCheckedContinuation { sleeper = $0 }
        timer.cancel()
    }

    private func endNap(_ number: Int) {
        guard number == napNumber, let sleeper else { return }
        self.sleeper = nil
        sleeper.resume()
    }
}
