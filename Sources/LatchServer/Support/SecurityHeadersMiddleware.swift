import Vapor

/// Gives every answer of the API's listener — JSON, documents, the account page and every error,
/// including a 404 for a path that does not exist — `X-Content-Type-Options: nosniff` and refuses
/// framing (`X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`), so no answer is ever sniffed
/// into script or drawn inside another site's frame (issue 20 §8). An answer that brings its own
/// Content-Security-Policy (the account page's, which also says `frame-ancestors 'none'`) keeps it;
/// every other answer gets `default-src 'none'; frame-ancestors 'none'` (nothing an API answer needs).
/// It runs outermost, after the error middleware turned failures into answers. Future-based, like
/// `NoStoreMiddleware`, so it adds no task hop to every request.
struct SecurityHeadersMiddleware: Middleware {
    /// The policy of an answer that sets none of its own.
    static let defaultContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).map { response in
            Self.protect(headers: &response.headers)
            return response
        }
    }

    /// Adds the headers to `headers` (also used by the metrics listener, which is not a Vapor server).
    static func protect(headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        if !headers.contains(name: "Content-Security-Policy") {
            headers.add(name: "Content-Security-Policy", value: defaultContentSecurityPolicy)
        }
    }
}
