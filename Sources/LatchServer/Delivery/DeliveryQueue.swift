import CoreMetrics
import Logging

/// Sends in the background, in memory, so a request that triggers a message never waits for, or fails
/// because of, the carrier. (latchd itself queues in the database: `DurableDelivery`, `DeliveryWorker`;
/// this queue backs `SMTPMailDelivery` and `SMSWebhookDelivery` used on their own.) At most `concurrency` sends run at once; a temporary failure is tried
/// again after the policy's backoff, a permanent one (or the last attempt) is logged and dropped.
/// At most `capacity` messages wait: one more is refused, counted in `refused` and logged, and
/// `enqueue` throws 503 (`delivery_queue_full`), so the request that wanted it sent says so.
/// Logs name the channel, a job number, the attempt and the failure's description: never an
/// address, a body or a code.
actor DeliveryQueue {
    typealias Send = @Sendable () async throws -> Void

    private struct Job {
        let number: Int
        let attempt: Int
        let send: Send
    }

    private let channel: String
    private let policy: RetryPolicy
    private let logger: Logger
    private let concurrency: Int
    private let capacity: Int
    private let metrics: DeliveryMetrics
    private var ready: [Job] = []
    private var running = 0
    /// Sends in flight and retries waiting out their backoff, by task key.
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var jobsQueued = 0
    /// Messages refused because the queue was full, since start.
    private(set) var refused = 0
    private var taskKeys = 0
    private var stopped = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    init(
        channel: String, policy: RetryPolicy, logger: Logger, concurrency: Int = 4, capacity: Int = 10_000,
        metrics: DeliveryMetrics = .disabled
    ) {
        self.metrics = metrics
        self.channel = channel
        self.policy = policy
        self.logger = logger
        self.concurrency = concurrency
        self.capacity = capacity
    }

    /// Queues `send` and returns at once; throws `LatchError.deliveryQueueFull` (nothing queued) when
    /// `capacity` messages are already waiting.
    func enqueue(_ send: @escaping Send) throws {
        guard !stopped else { return }
        guard ready.count < capacity else {
            refused += 1
            metrics.refused.increment()
            logger.error(
                "\(channel) not queued: the delivery queue is full; the request answers 503",
                metadata: ["channel": "\(channel)", "refused": "\(refused)"])
            throw LatchError.deliveryQueueFull
        }
        jobsQueued += 1
        ready.append(Job(number: jobsQueued, attempt: 1, send: send))
        pump()
    }

    /// Stops: queued messages are dropped, sends in flight and waiting retries are cancelled.
    func shutdown() {
        stopped = true
        ready = []
        for task in tasks.values { task.cancel() }
        tasks = [:]
        running = 0
        resumeIdleWaiters()
    }

    /// Returns when nothing is queued, sending or waiting to retry (for tests and orderly stops).
    func waitUntilIdle() async {
        if isIdle { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    private var isIdle: Bool { ready.isEmpty && tasks.isEmpty }

    /// Messages not delivered yet: waiting, sending, or waiting out a retry's backoff.
    var depth: Int { ready.count + tasks.count }

    private func pump() {
        while running < concurrency, !ready.isEmpty {
            let job = ready.removeFirst()
            running += 1
            taskKeys += 1
            let key = taskKeys
            tasks[key] = Task {
                let failure: (any Error)?
                do {
                    try await job.send()
                    failure = nil
                } catch {
                    failure = error
                }
                self.finished(job, key: key, failure: failure)
            }
        }
    }

    private func finished(_ job: Job, key: Int, failure: (any Error)?) {
        guard !stopped, tasks.removeValue(forKey: key) != nil else { return }
        running -= 1
        let metadata: Logger.Metadata = ["channel": "\(channel)", "job": "\(job.number)", "attempt": "\(job.attempt)"]
        if let failure {
            let temporary = (failure as? any DeliveryFailure)?.isTemporary ?? true
            let reason = (failure as? any DeliveryFailure)?.description ?? String(describing: type(of: failure))
            if temporary, let delay = policy.delay(afterFailedAttempt: job.attempt) {
                logger.warning("\(channel) delivery failed, will retry: \(reason)", metadata: metadata)
                metrics.retried.increment()
                scheduleRetry(Job(number: job.number, attempt: job.attempt + 1, send: job.send), after: delay)
            } else {
                let why = temporary ? "gave up after \(job.attempt) attempts" : "permanent failure"
                logger.error("\(channel) not delivered (\(why)): \(reason)", metadata: metadata)
                metrics.failed.increment()
            }
        } else {
            logger.info("\(channel) delivered", metadata: metadata)
            metrics.sent.increment()
        }
        pump()
        if isIdle { resumeIdleWaiters() }
    }

    private func scheduleRetry(_ job: Job, after delay: Duration) {
        taskKeys += 1
        let key = taskKeys
        tasks[key] = Task {
            do {
                try await Task.sleep(for: delay)
            } catch {
                return // cancelled by shutdown
            }
            self.retry(job, key: key)
        }
    }

    private func retry(_ job: Job, key: Int) {
        guard !stopped, tasks.removeValue(forKey: key) != nil else { return }
        ready.append(job)
        pump()
    }

    private func resumeIdleWaiters() {
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
