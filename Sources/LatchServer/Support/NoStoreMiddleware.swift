import Vapor

/// Marks every answer under `/v1` and `/dev` `Cache-Control: no-store` (tokens, profiles and codes
/// must never sit in a cache, RFC 6749 §5.1); public documents such as the JWKS may be cached.
/// Future-based, like `JSONBodyMiddleware`, so it adds no task hop to every request.
struct NoStoreMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard request.isUnder("v1") || request.isUnder("dev") else { return next.respond(to: request) }
        return next.respond(to: request).map { response in
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
            response.headers.replaceOrAdd(name: .pragma, value: "no-cache")
            return response
        }
    }
}
