import CoreMetrics

/// Issue 42 §3's series: `latch_events_delivered_total`, `latch_event_delivery_retries_total` and
/// `latch_events_failed_total` per stream, and `latch_event_commit_to_receiver_seconds` (the time from the
/// change to the receiver's 2xx). The emitted count and each stream's backlog and oldest undelivered age are
/// read from the database at each scrape (`EventStreamSetup`).
struct EventStreamMetrics: Sendable {
    private let delivered: LabeledCounters?
    private let retries: LabeledCounters?
    private let failures: LabeledCounters?
    private let latency: CoreMetrics.Timer?

    static let disabled = EventStreamMetrics(nil)

    init(_ metrics: LatchMetrics?) {
        guard let metrics else {
            (delivered, retries, failures, latency) = (nil, nil, nil, nil)
            return
        }
        delivered = metrics.labeledCounters("latch_events_delivered_total", labels: ["stream"])
        retries = metrics.labeledCounters("latch_event_delivery_retries_total", labels: ["stream"])
        failures = metrics.labeledCounters("latch_events_failed_total", labels: ["stream"])
        latency = metrics.timer("latch_event_commit_to_receiver_seconds")
    }

    func delivered(stream: String, commitToReceiver seconds: Double) {
        delivered?.increment(stream)
        latency?.recordNanoseconds(Int64(max(seconds, 0) * 1e9))
    }

    func retried(stream: String) { retries?.increment(stream) }
    func failed(stream: String) { failures?.increment(stream) }
}
