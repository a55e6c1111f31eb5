import Vapor

/// Marks every answer under `/v1` and `/dev` `Cache-Control: no-store` (tokens, profiles and codes
/// must never sit in a cache, RFC 6749 §5.1); public documents such as the JWKS may be cached.
struct NoStoreMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        let path = request.url.path
        if path.hasPrefix("/v1/") || path.hasPrefix("/dev/") {
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
            response.headers.replaceOrAdd(name: .pragma, value: "no-cache")
        }
        return response
    }
}
