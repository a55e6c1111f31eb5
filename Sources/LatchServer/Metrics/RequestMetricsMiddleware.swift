import Hummingbird
import NIOCore

/// Counts every answer by route template and status and records its latency (`RequestSeries`).
/// Installed only when metrics are on, outside the error middleware, so it sees the status the
/// client gets.
struct RequestMetricsMiddleware: RouterMiddleware {
    let series: RequestSeries

    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        let start = NIODeadline.now()
        let status: Int
        defer {
            series.record(
                method: request.method.rawValue, route: context.endpointPath, status: status,
                nanoseconds: (NIODeadline.now() - start).nanoseconds)
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            return response
        } catch {
            status = 500
            throw error
        }
    }
}
