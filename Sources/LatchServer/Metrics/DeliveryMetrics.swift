import CoreMetrics

/// The delivery series of one channel: `latch_deliveries_total{channel,result}` with result `sent`,
/// `retried` (a temporary failure, tried again after the backoff), `failed` (permanent, or the
/// last attempt) and `refused` (the queue was full: the request answered 503), and
/// `latch_delivery_queue_depth{channel}` (messages waiting, sending or waiting to retry), read at
/// each scrape. The development outbox keeps messages in memory and is not counted.
struct DeliveryMetrics: Sendable {
    let sent: CoreMetrics.Counter
    let retried: CoreMetrics.Counter
    let failed: CoreMetrics.Counter
    let refused: CoreMetrics.Counter

    init(channel: String, metrics: LatchMetrics) {
        func counter(_ result: String) -> CoreMetrics.Counter {
            metrics.counter("latch_deliveries_total", [("channel", channel), ("result", result)])
        }
        sent = counter("sent")
        retried = counter("retried")
        failed = counter("failed")
        refused = counter("refused")
    }

    /// No-op series.
    static let disabled = DeliveryMetrics(channel: "", metrics: .disabled())

    /// Sets the channel's depth gauge from `queue` before each scrape.
    static func sampleDepth(of queue: DeliveryQueue, channel: String, metrics: LatchMetrics) {
        let depth = metrics.gauge("latch_delivery_queue_depth", [("channel", channel)])
        metrics.sampleBeforeScrape { depth.record(await queue.depth) }
    }
}
