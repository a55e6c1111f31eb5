import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Gives every answer of the API's listener — JSON, documents, the account page and every error,
/// including a 404 for a path that does not exist — `X-Content-Type-Options: nosniff` and refuses
/// framing (`X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`), so no answer is ever sniffed
/// into script or drawn inside another site's frame (issue 20 §8). An answer that brings its own
/// Content-Security-Policy (the account page's, which also says `frame-ancestors 'none'`) keeps it;
/// every other answer gets `default-src 'none'; frame-ancestors 'none'` (nothing an API answer needs).
/// It runs outside the error middleware, after failures were turned into answers.
struct SecurityHeadersMiddleware: RouterMiddleware {
    /// The policy of an answer that sets none of its own.
    static let defaultContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        Self.protect(headers: &response.headers)
        return response
    }

    /// Adds the headers to `headers`.
    static func protect(headers: inout HTTPFields) {
        headers.replaceOrAdd(.xContentTypeOptions, "nosniff")
        headers.replaceOrAdd(.xFrameOptions, "DENY")
        if headers[.contentSecurityPolicy] == nil {
            headers.append(HTTPField(name: .contentSecurityPolicy, value: defaultContentSecurityPolicy))
        }
    }

    /// The same headers on the metrics listener's answers (a plain NIO server).
    static func protect(headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        if !headers.contains(name: "Content-Security-Policy") {
            headers.add(name: "Content-Security-Policy", value: defaultContentSecurityPolicy)
        }
    }
}

extension HTTPFields {
    /// Removes every `name` field and appends one with `value` (NIO's `replaceOrAdd`: the field moves last).
    mutating func replaceOrAdd(_ name: HTTPField.Name, _ value: String) {
        self[name] = nil
        append(HTTPField(name: name, value: value))
    }
}
