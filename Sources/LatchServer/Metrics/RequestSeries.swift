import CoreMetrics
import Synchronization

/// Requests by route template and status, with a latency histogram by route:
/// `latch_http_requests_total{method,route,status}` and `latch_http_request_duration_seconds{method,route}`.
///
/// The per-request cost is one dictionary look-up under a lock (keyed by the method, the matched route's
/// template as the router names it, and the status), an atomic add and a histogram record: the label text
/// and the series are made once, the first time a route answers a status. Requests that match no route
/// share `route="unmatched"`, `method="*"`, so a scanner's random paths cannot grow the series.
final class RequestSeries: Sendable {
    private struct Key: Hashable {
        /// The method and the matched route's template (`/v1/sessions/{id}`); nil: no route matched.
        let route: (method: String, template: String)?
        let status: Int

        static func == (left: Key, right: Key) -> Bool {
            left.status == right.status && left.route?.method == right.route?.method
                && left.route?.template == right.route?.template
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(route?.method)
            hasher.combine(route?.template)
            hasher.combine(status)
        }
    }

    private struct Series {
        let count: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
    }

    private let factory: any MetricsFactory
    private let series = Mutex<[Key: Series]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Counts one answer with `status` that took `nanoseconds`, of the route `route` (the router's
    /// template, `/v1/sessions/{id}`; nil or `NotFound` when none matched) asked with `method`.
    func record(method: String, route: String?, status: Int, nanoseconds: Int64) {
        let matched = route.flatMap { $0 == "NotFound" ? nil : $0 }
        // HEAD is answered by the GET route.
        let key = Key(route: matched.map { (method == "HEAD" ? "GET" : method, $0) }, status: status)
        let found = series.withLock { $0[key] } ?? make(key)
        found.count.increment()
        found.duration.recordNanoseconds(nanoseconds)
    }

    private func make(_ key: Key) -> Series {
        let method = key.route?.method ?? "*"
        let template = key.route.map { Self.label(template: $0.template) } ?? "unmatched"
        let made = Series(
            count: CoreMetrics.Counter(
                label: "latch_http_requests_total",
                dimensions: [("method", method), ("route", template), ("status", String(key.status))], factory: factory),
            duration: CoreMetrics.Timer(
                label: "latch_http_request_duration_seconds", dimensions: [("method", method), ("route", template)],
                preferredDisplayUnit: .seconds, factory: factory))
        series.withLock { $0[key] = made }
        return made
    }

    /// The route label: the template with `:name` for a captured segment (`/v1/sessions/:id`), as the
    /// series were always named.
    static func label(template: String) -> String {
        "/"
            + template.split(separator: "/").map { segment in
                segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : segment
            }.joined(separator: "/")
    }
}
