import Hummingbird
import Logging

/// One info line per request (`LATCH_LOG_REQUESTS`): the method and the path as it arrived, escaped by
/// `LogSafeText`, so `%0D%0A` in a URL cannot write a forged line into the log.
struct RequestLogMiddleware: RouterMiddleware {
    var level: Logger.Level = .info

    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        context.logger.log(level: level, "\(request.method) \(LogSafeText.escaped(request.uri.path))")
        return try await next(request, context)
    }
}
