import CoreMetrics
import FluentKit
import Foundation
import Logging
import ServiceLifecycle
import Tracing

/// Delivers queued events to their push streams (issue 42 §3): one per latchd process, sharing the work
/// with any other instance on the same database (`EventDeliveryStore.claim`).
///
/// Every `pollInterval` it looks at each enabled push stream that has no batch running here, claims up to
/// `concurrency` heads (one per user) and sends them side by side; a slow or dead receiver holds back only
/// its own stream. A 2xx is delivered; anything else is retried on `schedule` and, past its 72 hours,
/// marked failed (replayable). Logs and spans name the stream, the event's type and id and the attempt,
/// never a body, a header or a secret.
actor EventDeliveryWorker: Service {
    private let streams: EventStreamStore
    private let deliveries: EventDeliveryStore
    private let database: @Sendable () -> any Database
    private let transport: any EventTransport
    private let tokens: (any SecurityEventTokenSigner)?
    private let schedule: EventRetrySchedule
    private let clock: LatchClock
    private let logger: Logger
    private let metrics: EventStreamMetrics
    private let concurrency: Int
    private let pollInterval: Duration
    private let lease: Double
    /// This process's name in `claimed_by`.
    nonisolated let workerID = "latchd-events-\(UUID().uuidString.lowercased())"

    /// Streams with a batch running here.
    private var busy: Set<String> = []

    init(
        streams: EventStreamStore, deliveries: EventDeliveryStore, database: @escaping @Sendable () -> any Database,
        transport: any EventTransport, tokens: (any SecurityEventTokenSigner)?,
        schedule: EventRetrySchedule = .standard,
        clock: LatchClock, logger: Logger, metrics: EventStreamMetrics, concurrency: Int = 32,
        pollInterval: Duration = .milliseconds(100), lease: Double = 60
    ) {
        self.streams = streams
        self.deliveries = deliveries
        self.database = database
        self.transport = transport
        self.tokens = tokens
        self.schedule = schedule
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.concurrency = concurrency
        self.pollInterval = pollInterval
        self.lease = lease
    }

    /// As a service: delivers until the group's graceful shutdown, then releases what it holds.
    func run() async throws {
        try await LatchTracing.$storeCallsUntraced.withValue(true) { try await runUntraced() }
    }

    private func runUntraced() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.startBatches()
                try? await Task.sleep(for: self.pollInterval)
            }
        }
        while !busy.isEmpty { try? await Task.sleep(for: .milliseconds(20)) }
        try? await deliveries.releaseAll(claimedBy: workerID, on: database())
        await transport.shutdown()
    }

    /// Delivers every due event of every push stream now, batch after batch, until none is due; answers how
    /// many attempts were made. For tests and `latchd admin event-streams` (no background loop needed).
    @discardableResult
    func deliverDue() async throws -> Int {
        var attempts = 0
        while true {
            var round = 0
            for stream in try await streams.deliverable(now: clock.epochSeconds, on: database())
            where !busy.contains(stream.stream.id) {
                round += try await deliverBatch(of: stream)
            }
            attempts += round
            if round == 0 { return attempts }
        }
    }

    private func startBatches() async {
        let due: [EventStreamStore.Deliverable]
        do {
            due = try await streams.deliverable(now: clock.epochSeconds, on: database())
        } catch {
            logger.warning("event streams not read this round: \(String(reflecting: type(of: error)))")
            return
        }
        for stream in due where !busy.contains(stream.stream.id) {
            busy.insert(stream.stream.id)
            Task {
                // A full batch means more are waiting: go on at once rather than after the poll interval.
                while (try? await self.deliverBatch(of: stream)) == self.concurrency {}
                self.finished(stream.stream.id)
            }
        }
    }

    private func finished(_ stream: String) { busy.remove(stream) }

    /// Claims and sends one batch of `stream`'s due heads; answers how many were claimed.
    private nonisolated func deliverBatch(of stream: EventStreamStore.Deliverable) async throws -> Int {
        let db = database()
        let now = clock.epochSeconds
        let claimed = try await deliveries.claim(
            stream: stream.stream.id, by: workerID, limit: concurrency, now: now, lease: lease, on: db)
        guard !claimed.isEmpty else { return 0 }
        let outcomes = await withTaskGroup(of: (EventDeliveryStore.Claimed, EventTransportOutcome).self) { group in
            for delivery in claimed {
                group.addTask { (delivery, await self.attempt(delivery, to: stream)) }
            }
            var outcomes: [(EventDeliveryStore.Claimed, EventTransportOutcome)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let finishedAt = clock.epochSeconds
        var delivered: [Int?: [Int]] = [:]
        for (delivery, outcome) in outcomes {
            if case .nothingToSend = outcome {
                delivered[nil, default: []].append(delivery.id)
                continue
            }
            if outcome.accepted, case .answered(let status, _) = outcome {
                delivered[status, default: []].append(delivery.id)
                metrics.delivered(stream: stream.stream.id, commitToReceiver: finishedAt - delivery.event.occurredAt)
                continue
            }
            let (status, error) = Self.logged(outcome)
            switch schedule.next(
                afterAttempt: delivery.attempt, queuedAt: delivery.queuedAt, now: finishedAt,
                jitter: Double.random(in: 0...1))
            {
            case .retry(let at):
                metrics.retried(stream: stream.stream.id)
                try await deliveries.retry(
                    delivery.id, claimedBy: workerID, at: at, status: status, error: error, on: db)
            case .giveUp:
                metrics.failed(stream: stream.stream.id)
                logger.warning(
                    "event delivery failed for good",
                    metadata: [
                        "stream": "\(stream.stream.id)", "event": "\(delivery.event.id)",
                        "attempts": "\(delivery.attempt)"
                    ])
                try await deliveries.fail(
                    delivery.id, claimedBy: workerID, status: status, error: error, now: finishedAt, on: db)
            }
        }
        for (status, ids) in delivered {
            try await deliveries.delivered(ids, claimedBy: workerID, status: status, now: finishedAt, on: db)
        }
        return claimed.count
    }

    /// One attempt of `delivery` to `stream`, in a span of its own when tracing is on.
    private nonisolated func attempt(_ delivery: EventDeliveryStore.Claimed, to stream: EventStreamStore.Deliverable)
        async -> EventTransportOutcome
    {
        guard LatchTracing.isEnabled else { return await send(delivery, to: stream) }
        return await withSpan("event delivery", ofKind: .producer) { span in
            span.updateAttributes { attributes in
                attributes["latch.event_stream.id"] = stream.stream.id
                attributes["latch.event_stream.kind"] = stream.stream.kind.rawValue
                attributes["latch.event.type"] = delivery.event.type
                attributes["latch.event.id"] = delivery.event.id
                attributes["latch.delivery.attempt"] = delivery.attempt
            }
            let outcome = await send(delivery, to: stream)
            switch outcome {
            case .answered(let status, _):
                span.attributes["http.response.status_code"] = status
                if !outcome.accepted { span.setStatus(SpanStatus(code: .error)) }
            case .failed(let reason):
                span.attributes["error.type"] = reason
                span.setStatus(SpanStatus(code: .error))
            case .nothingToSend:
                span.attributes["latch.delivery.skipped"] = true
            }
            return outcome
        }
    }

    private nonisolated func send(_ delivery: EventDeliveryStore.Claimed, to stream: EventStreamStore.Deliverable)
        async -> EventTransportOutcome
    {
        guard let url = stream.stream.url else { return .failed(reason: "no_url") }
        let request: EventDeliveryRequest
        do {
            switch stream.stream.kind {
            case .webhook:
                guard !stream.webhookSecrets.isEmpty else { return .failed(reason: "secret_unreadable") }
                request = try EventDeliveryRequest.webhook(
                    delivery.event, secrets: stream.webhookSecrets, timestamp: Int(clock.epochSeconds))
            case .ssfPush:
                guard let tokens else { return .failed(reason: "no_security_event_token_signer") }
                guard let token = try await tokens.token(for: delivery.event, stream: stream.stream) else {
                    return .nothingToSend
                }
                request = .securityEventToken(token, authorization: stream.authorization)
            case .ssfPoll:
                return .failed(reason: "poll_stream")
            }
        } catch {
            return .failed(reason: "not_encoded")
        }
        return await transport.deliver(request, to: url)
    }

    /// The status and error a delivery log keeps of a refused attempt (the answer's start, or the reason).
    private static func logged(_ outcome: EventTransportOutcome) -> (Int?, String) {
        switch outcome {
        case .answered(let status, let body): (status, body.isEmpty ? "HTTP \(status)" : String(body.prefix(200)))
        case .failed(let reason): (nil, reason)
        case .nothingToSend: (nil, "")
        }
    }
}

/// Signs the SET of an event for an SSF stream (issue 42 §2); nil when no CAEP or RISC event fits its type.
protocol SecurityEventTokenSigner: Sendable {
    func token(for event: OutboundEventStore.Stored, stream: EventStream) async throws -> String?
}
