import Vapor

/// `GET /dev/outbox?to=ADDRESS`: the development outbox. Registered only in development;
/// in production the path is unknown (404).
struct OutboxRoutes: RouteCollection {
    let outbox: DevelopmentOutbox

    func boot(routes: any RoutesBuilder) throws {
        routes.get("dev", "outbox") { req async -> [OutgoingMessage] in
            await outbox.messages(to: req.query[String.self, at: "to"])
        }
    }
}
