import CoreMetrics
import Prometheus
import Synchronization

/// latchd's Prometheus series (issue 12 §3), made through swift-metrics' API with a factory this
/// app owns: nothing is bootstrapped process-wide, so tests can run several servers in one process,
/// each with its own registry. Off (`LATCH_METRICS_PORT` unset), every series is a no-op and the
/// request middleware is not even installed.
///
/// Every name starts with `latch_`. Label values are bounded: route templates (`/v1/sessions/:id`,
/// never the raw path), grant types, method names, error codes' names and channel names, never an
/// address, an id or anything a client chooses freely.
///
///     let metrics = LatchMetrics(registry: PrometheusCollectorRegistry())
///     metrics.signIns.increment("password", "succeeded")
///     let text = await metrics.scrape()   // Prometheus text format
final class LatchMetrics: Sendable {
    /// Where the series live and are scraped from; nil when metrics are off.
    let registry: PrometheusCollectorRegistry?
    private let factory: any MetricsFactory
    /// `latch_http_requests_total{method,route,status}` and `latch_http_request_duration_seconds{method,route}`.
    let requests: RequestSeries
    /// `latch_sign_ins_total{method,outcome}`: `POST /v1/token` by grant type; outcome `succeeded` or the error's name.
    let signIns: LabeledCounters
    /// `latch_verifications_total{method,outcome}`: step-up attempts by method; outcome `passed` or the error's name.
    let verifications: LabeledCounters
    /// `latch_policy_decisions_total{decision}` (issue 30): verifications the policy raised to two factors
    /// (`two_factors`), refused for the daily limit at start or redemption (`limit`), or time-locked for a
    /// new value (`new_value_locked`). Actions are app-chosen names, so they are not a label.
    let policyDecisions: LabeledCounters
    /// `latch_locks_total{secret}`: locks started (lockout ladder or spent budget), by the kind of secret guessed.
    let locks: LabeledCounters
    /// `latch_guess_budgets_exhausted_total{secret}`: daily failure budgets spent (each also starts a lock).
    let exhaustedBudgets: LabeledCounters
    /// `latch_refresh_token_reuse_total`: an already rotated refresh token presented again (the session is revoked).
    let refreshTokenReuse: CoreMetrics.Counter
    /// Reads of live values (queue depths, a pool probe) run just before each scrape.
    private let samplers = Mutex<[@Sendable () async -> Void]>([])

    /// Metrics kept in `registry`; with nil, every series is a no-op.
    init(registry: PrometheusCollectorRegistry?) {
        self.registry = registry
        let factory: any MetricsFactory =
            registry.map { PrometheusMetricsFactory(registry: $0) } ?? NOOPMetricsHandler.instance
        self.factory = factory
        let enabled = registry != nil
        requests = RequestSeries(factory: factory)
        signIns = LabeledCounters(
            "latch_sign_ins_total", labels: ["method", "outcome"], factory: factory, enabled: enabled)
        verifications = LabeledCounters(
            "latch_verifications_total", labels: ["method", "outcome"], factory: factory, enabled: enabled)
        policyDecisions = LabeledCounters(
            "latch_policy_decisions_total", labels: ["decision"], factory: factory, enabled: enabled)
        locks = LabeledCounters("latch_locks_total", labels: ["secret"], factory: factory, enabled: enabled)
        exhaustedBudgets = LabeledCounters(
            "latch_guess_budgets_exhausted_total", labels: ["secret"], factory: factory, enabled: enabled)
        refreshTokenReuse = CoreMetrics.Counter(
            label: "latch_refresh_token_reuse_total", dimensions: [], factory: factory)
    }

    /// Metrics off: no registry, no-op series.
    static func disabled() -> LatchMetrics { LatchMetrics(registry: nil) }

    var isEnabled: Bool { registry != nil }

    /// A counter of this app's series (a no-op when off).
    func counter(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: name, dimensions: dimensions, factory: factory)
    }

    /// Counters of one series by label values (no-ops when off).
    func labeledCounters(_ name: String, labels: [String]) -> LabeledCounters {
        LabeledCounters(name, labels: labels, factory: factory, enabled: isEnabled)
    }

    /// A gauge of this app's series (a no-op when off).
    func gauge(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Gauge {
        CoreMetrics.Gauge(label: name, dimensions: dimensions, factory: factory)
    }

    /// A latency histogram of this app's series, in seconds (a no-op when off).
    func timer(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: name, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
    }

    /// Runs `sample` before every scrape (to set a gauge from a live value). Nothing is kept when off.
    func sampleBeforeScrape(_ sample: @escaping @Sendable () async -> Void) {
        guard isEnabled else { return }
        samplers.withLock { $0.append(sample) }
    }

    /// The Prometheus text of every series, after the samplers ran.
    func scrape() async -> [UInt8] {
        for sample in samplers.withLock({ $0 }) { await sample() }
        return registry?.emitToBuffer() ?? []
    }

    /// The label of an error in `outcome`: a `LatchError`'s code name (`wrongCredentials`, `locked`,
    /// `rateLimited`…), else `error`. Bounded by the error codes, and readable without the API table.
    static func outcome(of error: any Error) -> String {
        guard let latchError = error as? LatchError else { return "error" }
        return String(describing: latchError.code)
    }
}

extension LatchMetrics {
    /// On with a registry of their own when `LATCH_METRICS_PORT` is set, else off.
    static func forConfiguration(_ config: LatchConfig) -> LatchMetrics {
        config.metricsPort == nil ? .disabled() : LatchMetrics(registry: PrometheusCollectorRegistry())
    }
}
