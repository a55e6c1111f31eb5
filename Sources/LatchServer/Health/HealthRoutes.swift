import Vapor

/// `GET /health`: the process is serving.
struct HealthRoutes: RouteCollection {
    struct Status: Content { var status = "ok" }

    func boot(routes: any RoutesBuilder) throws {
        routes.get("health") { _ in Status() }
    }
}
