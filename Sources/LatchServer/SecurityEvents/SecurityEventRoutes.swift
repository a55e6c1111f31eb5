import Fluent
import LatchCore
import Vapor

/// `GET /v1/security-events`: the user's newest 100 security events, newest first.
struct SecurityEventRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("v1").grouped(RequireSignedIn()).get("security-events", use: list)
    }

    func list(_ req: Request) async throws -> [SecurityEventInfo] {
        let me = try req.signedIn
        return try await SecurityEvent.query(on: req.db)
            .filter(\.$userID == me.userID)
            .sort(\.$createdAt, .descending)
            .limit(100)
            .all()
            .map(\.info)
    }
}
