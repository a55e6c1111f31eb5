import CoreMetrics
import FluentKit
import Foundation
import Logging
import ServiceLifecycle

/// Makes issue 42's services for `config`: the stores, the receiver rules, the SET signer and, where
/// background tasks run, the delivery worker (added as a service) and the stream series read at each scrape.
enum EventStreamSetup {
    static func services(
        for config: LatchConfig, secrets: SecretBox, keys: SigningKeyRing,
        database: @escaping @Sendable () -> any Database,
        metrics: LatchMetrics, clock: LatchClock, logger: Logger,
        addService: (any Service, String) -> Void
    ) -> EventStreamServices {
        let streams = EventStreamStore(secrets: secrets)
        let deliveries = EventDeliveryStore(kind: config.database.kind)
        let rules = config.receiverAddressRules
        let tokens = SecurityEventTokenEncoder(ring: keys, issuer: config.issuer, clock: clock, database: database)
        var worker: EventDeliveryWorker?
        if config.runsBackgroundTasks {
            let running = EventDeliveryWorker(
                streams: streams, deliveries: deliveries, database: database,
                transport: ReceiverTransport(client: ReceiverClient(rules: rules, settings: config.receiverClient)),
                tokens: tokens, clock: clock, logger: logger,
                metrics: EventStreamMetrics(metrics.isEnabled ? metrics : nil))
            addService(running, "event stream delivery")
            addService(
                PeriodicTask(every: .seconds(60), name: "old event deliveries", logger: logger) {
                    try await deliveries.prune(now: clock.epochSeconds, on: database())
                }, "old event deliveries")
            worker = running
        }
        let emitted = metrics.gauge("latch_events_emitted")
        metrics.sampleBeforeScrape {
            if let last = try? await OutboundEventStore().lastSeq(on: database()) { emitted.record(last) }
            guard let backlog = try? await deliveries.backlog(on: database()) else { return }
            let now = clock.epochSeconds
            for stream in (try? await streams.streams(on: database())) ?? [] {
                let pending = backlog[stream.id]
                metrics.gauge("latch_events_pending", [("stream", stream.id)]).record(pending?.pending ?? 0)
                metrics.gauge("latch_events_oldest_pending_seconds", [("stream", stream.id)])
                    .record(pending.map { max(0, now - $0.oldest) } ?? 0)
            }
        }
        return EventStreamServices(
            streams: streams, deliveries: deliveries, rules: rules, worker: worker, tokens: tokens)
    }
}
