import Vapor

/// One info line per request (`LATCH_LOG_REQUESTS`): the method and the path as it arrived,
/// escaped by `LogSafeText` — unlike Vapor's `RouteLoggingMiddleware`, which percent-decodes the
/// path and so lets `%0D%0A` in a URL write a forged line into the log.
struct RequestLogMiddleware: AsyncMiddleware {
    var level: Logger.Level = .info

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        request.logger.log(level: level, "\(request.method) \(LogSafeText.escaped(request.url.path))")
        return try await next.respond(to: request)
    }
}
