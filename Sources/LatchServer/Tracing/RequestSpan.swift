/// What a request's span says (issue 29 §2), whatever the web framework: named `METHOD /route/{param}` after
/// the route that matched (OpenTelemetry's HTTP server convention; the method alone when none did), with the
/// method, the route template and the answer's status. Never the path itself: a path may hold a link's token.
struct RequestSpan: Equatable, Sendable {
    let method: String
    /// The matched route's template as the router names it, parameters as `{name}`; nil when no route matched.
    let route: String?

    var name: String { route.map { "\(method) \($0)" } ?? method }

    /// Whether an answer with `status` marks the span as failed (a server error; a refused request is not).
    static func isFailure(status: Int) -> Bool { status >= 500 }
}
