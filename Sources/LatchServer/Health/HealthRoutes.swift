import Fluent
import Vapor

/// `GET /health`: the process is serving (liveness; touches nothing). `GET /health/ready`: the
/// database answers too (readiness; 503 when it cannot be reached, see `ReadinessCheck`).
struct HealthRoutes: RouteCollection {
    struct Status: Content { var status = "ok" }

    let readiness: ReadinessCheck

    func boot(routes: any RoutesBuilder) throws {
        routes.get("health") { _ in Status() }
        routes.get("health", "ready") { req async throws -> Status in
            try await readiness.check(req.db)
            return Status()
        }
    }
}
