import Foundation
import LatchServer
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// latchd's tracing (issue 29 §2): when the environment names an OTLP endpoint
/// (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), swift-otel's tracer exports spans
/// over OTLP/HTTP (protobuf), configured by the standard `OTEL_*` variables, as service `latchd` unless
/// `OTEL_SERVICE_NAME` says otherwise; only traces, never logs or metrics (latchd has its own). Off otherwise.
enum ServeTracing {
    /// Bootstraps the tracer and turns Latch's spans on, when `environment` asks for traces; returns the
    /// exporter's service (to run until shutdown, which flushes what is queued), or nil.
    static func bootstrap(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> (any Service)?
    {
        guard LatchTracing.isRequested(by: environment) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "latchd"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        LatchTracing.enable()
        return backend.service
    }
}
