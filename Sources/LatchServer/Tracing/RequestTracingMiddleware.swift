import Tracing
import Vapor

/// A span per request (`RequestSpan`), continuing the caller's trace when it sends `traceparent` (the
/// bootstrapped propagator reads it); the store calls the request makes are its children. Installed outermost,
/// only while `LatchTracing.isEnabled`, so an untraced latchd pays nothing for it.
struct RequestTracingMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        var parent = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        let described = RequestSpan(
            method: request.method.rawValue,
            route: request.route.map { RequestSpan.template(segments: $0.path.map(\.description)) })
        return try await withSpan(described.name, context: parent, ofKind: .server) { span in
            request.serviceContext = span.context
            span.updateAttributes { attributes in
                attributes["http.request.method"] = described.method
                if let route = described.route { attributes["http.route"] = route }
            }
            let response = try await next.respond(to: request)
            let status = Int(response.status.code)
            span.attributes["http.response.status_code"] = status
            if RequestSpan.isFailure(status: status) { span.setStatus(SpanStatus(code: .error)) }
            return response
        }
    }

    private struct HeaderExtractor: Extractor {
        func extract(key: String, from headers: HTTPHeaders) -> String? { headers.first(name: key) }
    }
}
