import FluentKit
import LatchCore
import Vapor

extension SecurityEventPage: Content {}

/// `GET /v1/security-events?limit=N&cursor=C`: the user's security events, newest first, a page at a
/// time (issue 20 §5: no "newest N" that a stranger's failures could push real events out of).
struct SecurityEventRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("v1").grouped(RequireSignedIn()).get("security-events", use: list)
    }

    func list(_ req: Request) async throws -> SecurityEventPage {
        let me = try req.signedIn
        return try await SecurityEventPage.query(
            userID: me.userID, limit: try req.pageLimitParameter, cursor: req.query[String.self, at: "cursor"],
            on: req.db)
    }
}
