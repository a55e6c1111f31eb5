import LatchCore
import Vapor

/// One rule for every request body under `/v1/`: a body (any `Content-Length` above 0, or a chunked
/// one) must be sent as `Content-Type: application/json` (parameters such as `charset` allowed),
/// otherwise 415 UNSUPPORTED_MEDIA_TYPE before any route runs, whether or not the route reads it.
/// So no web page can reach the API with a cross-site "simple" POST (`text/plain`, form encodings
/// and no type at all are refused), and no route can forget the check.
///
/// A future-based `Middleware`, not an `AsyncMiddleware`: it runs on every request, and each async
/// middleware costs a task and two executor hops per request (issue 10's benchmark rule).
struct JSONBodyMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        if Self.hasBody(request.headers), request.isUnder("v1"), !Self.isJSON(request.headers) {
            return request.eventLoop.makeFailedFuture(LatchError(.unsupportedMediaType))
        }
        return next.respond(to: request)
    }

    /// Whether the headers announce a body: a `Content-Length` other than 0, or any `Transfer-Encoding`.
    static func hasBody(_ headers: HTTPHeaders) -> Bool {
        if !headers[.transferEncoding].isEmpty { return true }
        return headers[.contentLength].contains { $0.trimmingCharacters(in: .whitespaces) != "0" }
    }

    /// Whether the content type is `application/json` (type and subtype, any parameters).
    static func isJSON(_ headers: HTTPHeaders) -> Bool {
        // Compared by hand: HTTPMediaType's == lets a `*/*` wildcard equal anything.
        guard let type = headers.contentType else { return false }
        return type.type.lowercased() == "application" && type.subType.lowercased() == "json"
    }
}
