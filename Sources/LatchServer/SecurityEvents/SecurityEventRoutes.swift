import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

extension SecurityEventPage: ResponseEncodable {}

/// `GET /v1/security-events?limit=N&cursor=C`: the user's security events, newest first, a page at a
/// time (issue 20 §5: no "newest N" that a stranger's failures could push real events out of).
struct SecurityEventRoutes: LatchRouteCollection {
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        routes.grouped("v1").signedIn().get("security-events", use: list)
    }

    func list(_ req: LatchRequest) async throws -> SecurityEventPage {
        let me = try req.signedIn
        return try await SecurityEventPage.query(
            userID: me.userID, limit: try req.pageLimitParameter, cursor: req.query[String.self, at: "cursor"],
            on: database(req))
    }
}
