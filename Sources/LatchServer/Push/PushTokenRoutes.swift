import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of push tokens (issue 43 §2): `PUT` and `DELETE /v1/device-credentials/{id}/push-token`,
/// signed in, on one of the caller's keys; each handler parses its request once and calls one method of
/// `PushTokenService`.
struct PushTokenRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        let signedIn = routes.grouped("v1", "device-credentials").signedIn()
        signedIn.put(":id", "push-token", use: register)
        signedIn.delete(":id", "push-token", use: remove)
    }

    func register(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let body = try req.decodeJSON(PushTokenRequest.self)
        try await pushTokens(req).register(body, on: req.idParameter, by: try req.caller)
        return .noContent
    }

    func remove(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        try await pushTokens(req).remove(from: req.idParameter, by: try req.caller)
        return .noContent
    }
}

extension PushTokenRoutes {
    /// `PushTokenService` on `req`'s database.
    func pushTokens(_ req: LatchRequest) -> PushTokenService { PushTokenService(latch: latch, db: database(req)) }
}
