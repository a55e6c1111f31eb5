import Foundation
import Testing

@testable import LatchServer

/// Issue 29 §2, tracing: when spans are made, and what they say. The spans themselves, exported to a real
/// OTLP/HTTP receiver by a real latchd, are checked by `scripts/ci/otlp_traces.py` (run by `.ci/run`).
@Suite("Issue 29 §2: tracing")
struct TracingTests {
    @Test("29 §2 tracing is off unless an OTLP endpoint is set, and OTEL_SDK_DISABLED turns it off")
    func test_29_2_tracingIsOffUnlessAnEndpointIsSet() {
        #expect(!LatchTracing.isRequested(by: [:]))
        #expect(
            !LatchTracing.isRequested(by: [
                "OTEL_SERVICE_NAME": "latchd", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"
            ]))
        #expect(!LatchTracing.isRequested(by: ["OTEL_EXPORTER_OTLP_ENDPOINT": "  "]))
        #expect(LatchTracing.isRequested(by: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]))
        #expect(LatchTracing.isRequested(by: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"]))
        #expect(
            !LatchTracing.isRequested(by: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "TRUE"
            ]))
        #expect(!LatchTracing.isEnabled, "no test process turns spans on")
    }

    @Test("29 §2 a request's span is named by its method and route template, never by its path")
    func test_29_2_requestSpanNames() {
        let attempt = RequestSpan(method: "POST", route: "/v1/verifications/{id}/attempts")
        #expect(attempt.name == "POST /v1/verifications/{id}/attempts")
        #expect(RequestSpan(method: "GET", route: "/v1/me").name == "GET /v1/me")
        // The metrics name the same route with `:name` parameters, as their series always did.
        #expect(RequestSeries.label(template: "/v1/verifications/{id}/attempts") == "/v1/verifications/:id/attempts")
        #expect(RequestSeries.label(template: "/health") == "/health")
        #expect(RequestSpan(method: "DELETE", route: nil).name == "DELETE", "no route matched: the method alone")
        #expect(RequestSpan.isFailure(status: 500) && RequestSpan.isFailure(status: 503))
        #expect(!RequestSpan.isFailure(status: 404) && !RequestSpan.isFailure(status: 429))
    }

    @Test(
        "29 §2 closed world: every transaction of LatchServer goes through tracedTransaction, so its store calls stay under their request's span"
    )
    func test_29_2_everyTransactionKeepsTheTrace() throws {
        let enumerator = try #require(FileManager.default.enumerator(atPath: FrameworkBoundaryTests.sources.path))
        var plain: [String] = []
        for case let path as String in enumerator
        where path.hasSuffix(".swift") && !path.hasSuffix("Database+TracedTransaction.swift") {
            let text = try String(
                contentsOf: FrameworkBoundaryTests.sources.appendingPathComponent(path), encoding: .utf8)
            if text.contains(".transaction {") || text.contains(".transaction(") { plain.append(path) }
        }
        #expect(plain.isEmpty, "a transaction that loses the request's trace context: \(plain)")
    }

    @Test("29 §2 a store call's span names its operation and table, read from SQL that holds no values")
    func test_29_2_storeCallSpanNames() {
        #expect(StoreCallSpan(sql: "SELECT id, email FROM users WHERE id = $1").name == "SELECT users")
        #expect(
            StoreCallSpan(sql: "INSERT INTO delivery_jobs (id, channel) SELECT ?, ? WHERE (SELECT 1)").name
                == "INSERT delivery_jobs")
        #expect(StoreCallSpan(sql: "UPDATE \"sessions\" SET revoked_at = $1 WHERE id = $2").name == "UPDATE sessions")
        #expect(StoreCallSpan(sql: "delete from email_codes where expires_at < ?").name == "DELETE email_codes")
        #expect(StoreCallSpan(sql: "\n  SELECT 1 AS due").name == "SELECT")
        #expect(
            StoreCallSpan(sql: "CREATE TRIGGER t AFTER UPDATE OF a ON sessions BEGIN SELECT 1; END").name == "CREATE")
        #expect(StoreCallSpan(sql: "").name == "SQL")
    }
}
