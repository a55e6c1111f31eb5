import HTTPTypes
import Hummingbird
import Tracing

/// A span per request (`RequestSpan`), continuing the caller's trace when it sends `traceparent` (the
/// bootstrapped propagator reads it); the store calls the request makes are its children. Installed outermost,
/// only while `LatchTracing.isEnabled`, so an untraced latchd pays nothing for it. Hummingbird's own
/// `TracingMiddleware` is not used: it records the path and the query, where a link's token can be.
struct RequestTracingMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        var parent = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 }
        let described = RequestSpan(method: request.method.rawValue, route: route)
        return try await withSpan(described.name, context: parent, ofKind: .server) { span in
            span.updateAttributes { attributes in
                attributes["http.request.method"] = described.method
                if let route = described.route { attributes["http.route"] = route }
            }
            let response = try await next(request, context)
            let status = response.status.code
            span.attributes["http.response.status_code"] = status
            if RequestSpan.isFailure(status: status) { span.setStatus(SpanStatus(code: .error)) }
            return response
        }
    }

    private struct HeaderExtractor: Extractor {
        func extract(key: String, from headers: HTTPFields) -> String? {
            HTTPField.Name(key).flatMap { headers[values: $0].first }
        }
    }
}
