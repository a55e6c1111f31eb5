import CoreMetrics
import Synchronization

/// The counters of one metric, one per combination of label values, made on first use and kept:
/// after the first time, an increment is a dictionary look-up under a lock and an atomic add.
/// Callers pass bounded values only (grant types, method names, error names).
final class LabeledCounters: Sendable {
    private let name: String
    private let labels: [String]
    private let factory: any MetricsFactory
    private let enabled: Bool
    private let counters = Mutex<[[String]: CoreMetrics.Counter]>([:])

    init(_ name: String, labels: [String], factory: any MetricsFactory, enabled: Bool) {
        self.name = name
        self.labels = labels
        self.factory = factory
        self.enabled = enabled
    }

    /// Adds one to the counter of `values` (in the order of the labels).
    func increment(_ values: String...) {
        guard enabled else { return }
        precondition(values.count == labels.count, "\(name) takes \(labels.count) label values")
        if let counter = counters.withLock({ $0[values] }) {
            counter.increment()
            return
        }
        // Made outside the lock; the registry returns the same series to a racing maker.
        let counter = CoreMetrics.Counter(label: name, dimensions: Array(zip(labels, values)), factory: factory)
        counters.withLock { $0[values] = counter }
        counter.increment()
    }
}
