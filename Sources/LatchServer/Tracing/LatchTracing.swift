import Foundation
import Synchronization
import Tracing

/// Whether latchd makes spans (issue 29 §2): off unless `OTEL_EXPORTER_OTLP_ENDPOINT` or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` names a collector. `latchd serve` bootstraps swift-otel's tracer and then
/// calls `enable()`; until then (and in every test process) a request makes no span and pays one relaxed load.
///
/// What a span may carry: the request's method, route template and status, and a store call's operation and
/// table. Never a path (a link's token), a query string, a header, a body, a bound value or an address: so no
/// password, fund password, code, token, email or phone number reaches a collector.
public enum LatchTracing {
    private static let enabled = Atomic<Bool>(false)

    /// Whether spans are made.
    public static var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    /// True in a background loop whose store calls make no spans: the event delivery worker polls every
    /// 100 ms, and a trace per poll would bury the requests' (its deliveries have spans of their own).
    @TaskLocal static var storeCallsUntraced = false

    /// Turns request and store spans on, once `InstrumentationSystem` has a tracer.
    public static func enable() { enabled.store(true, ordering: .relaxed) }

    /// Whether `environment` asks for traces: a traces or shared OTLP endpoint is set, and the SDK is not
    /// disabled (`OTEL_SDK_DISABLED=true`).
    public static func isRequested(by environment: [String: String]) -> Bool {
        if environment["OTEL_SDK_DISABLED"]?.lowercased() == "true" { return false }
        return ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"].contains {
            !(environment[$0] ?? "").trimmingCharacters(in: .whitespaces).isEmpty
        }
    }

    /// Runs `body` in a client span for a store call of `operation` on `table`, when tracing is on. The span's
    /// name is worked out only then: parsing the SQL took 4 % of a refresh's CPU with tracing off (issue 29 §3).
    static func storeCall<T>(
        _ describe: @autoclosure () -> StoreCallSpan, system: String, _ body: () async throws -> T
    ) async rethrows -> T {
        guard isEnabled, !storeCallsUntraced else { return try await body() }
        let call = describe()
        return try await withSpan(call.name, ofKind: .client) { span in
            span.updateAttributes { attributes in
                attributes["db.system.name"] = system
                attributes["db.operation.name"] = call.operation
                if let table = call.table { attributes["db.collection.name"] = table }
            }
            return try await body()
        }
    }
}
