import Hummingbird

/// Marks every answer under `/v1` and `/dev` `Cache-Control: no-store` (tokens, profiles and codes
/// must never sit in a cache, RFC 6749 §5.1); public documents such as the JWKS may be cached.
struct NoStoreMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.isUnder("v1") || request.isUnder("dev") else { return try await next(request, context) }
        var response = try await next(request, context)
        response.headers.replaceOrAdd(.cacheControl, "no-store")
        response.headers.replaceOrAdd(.pragma, "no-cache")
        return response
    }
}
