import CoreMetrics
import Synchronization
import Vapor

/// Requests by route template and status, with a latency histogram by route:
/// `latch_http_requests_total{method,route,status}` and `latch_http_request_duration_seconds{method,route}`.
///
/// The per-request cost is one dictionary look-up under a lock (keyed by the matched `Route`'s
/// identity and the status), an atomic add and a histogram record: the route's template text and
/// the series are made once, the first time a route answers a status. Requests that match no route
/// share `route="unmatched"`, `method="*"`, so a scanner's random paths cannot grow the series.
final class RequestSeries: Sendable {
    private struct Key: Hashable {
        /// The matched route (routes live as long as the app); nil: no route matched.
        let route: ObjectIdentifier?
        let status: UInt
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

    /// Counts one answer of `route` with `status` that took `nanoseconds`.
    func record(route: Route?, status: UInt, nanoseconds: Int64) {
        let key = Key(route: route.map { ObjectIdentifier($0) }, status: status)
        let found = series.withLock { $0[key] } ?? make(key, route: route)
        found.count.increment()
        found.duration.recordNanoseconds(nanoseconds)
    }

    private func make(_ key: Key, route: Route?) -> Series {
        let method = route?.method.rawValue ?? "*"
        let template = route.map { "/" + $0.path.string } ?? "unmatched"
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
}
