import NIOCore
import Vapor

/// Counts every answer by route template and status and records its latency (`RequestSeries`).
/// Installed only when metrics are on, outside the error middleware, so it sees the status the
/// client gets. A future-based middleware rather than an `AsyncMiddleware`: no task per request.
struct RequestMetricsMiddleware: Middleware {
    let series: RequestSeries

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let start = NIODeadline.now()
        return next.respond(to: request).always { result in
            let status: UInt
            switch result {
            case .success(let response): status = response.status.code
            case .failure(let error): status = (error as? any AbortError)?.status.code ?? 500
            }
            series.record(route: request.route, status: status, nanoseconds: (NIODeadline.now() - start).nanoseconds)
        }
    }
}
