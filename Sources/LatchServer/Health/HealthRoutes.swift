import FluentKit
import HTTPTypes
import Hummingbird

/// `GET /health`: the process is serving (liveness; touches nothing). `GET /health/ready`: the
/// database answers too (readiness; 503 when it cannot be reached, see `ReadinessCheck`).
struct HealthRoutes: LatchRouteCollection {
    struct Status: ResponseEncodable { var status = "ok" }

    let readiness: ReadinessCheck
    let database: RequestDatabase

    private static let okBody = ByteBuffer(string: #"{"status":"ok"}"#)

    func boot(routes: LatchRoutes) throws {
        // Liveness answers the same bytes every time: made once (issue 21), not encoded per request.
        routes.get("health") { _ in Response.json(Self.okBody) }
        routes.get("health", "ready") { req -> Status in
            try await readiness.check(database(req))
            return Status()
        }
    }
}
