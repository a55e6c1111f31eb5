import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of push tokens (issue 43 §2): `PUT` and `DELETE /v1/device-credentials/{id}/push-token`,
/// signed in, on one of the caller's keys; each handler parses its request once and calls one method of
/// `PushTokenService`.
struct PushTokenRoutes: LatchRouteCollection {
    func boot(routes: LatchRoutes) throws {
        let signedIn = routes.grouped("v1", "device-credentials").grouped(RequireSignedIn())
        signedIn.put(":id", "push-token", use: register)
        signedIn.delete(":id", "push-token", use: remove)
    }

    func register(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let body = try req.decodeJSON(PushTokenRequest.self)
        try await req.pushTokens.register(body, on: req.idParameter, by: try req.caller)
        return .noContent
    }

    func remove(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        try await req.pushTokens.remove(from: req.idParameter, by: try req.caller)
        return .noContent
    }
}

extension LatchRequest {
    /// `PushTokenService` on this request's database.
    var pushTokens: PushTokenService { PushTokenService(latch: latch, db: db) }
}
