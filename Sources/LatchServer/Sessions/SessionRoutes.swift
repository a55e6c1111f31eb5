import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of C8/C9 (list the signed-in devices, sign one out, sign out all others, sign out
/// here): each handler parses its request once and calls one method of `SessionService`.
struct SessionRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        let signedIn = routes.grouped("v1").signedIn()
        signedIn.get("sessions", use: list)
        signedIn.delete("sessions", ":id", use: revokeOne)
        signedIn.delete("sessions", use: revokeOthers)
        signedIn.post("logout", use: logout)
    }

    func list(_ req: LatchRequest) async throws -> [SessionInfo] {
        try await sessions(req).list()
    }

    func revokeOne(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        guard let id = req.idParameter else { throw LatchError.notFound }
        try await sessions(req).signOut(id)
        return .noContent
    }

    func revokeOthers(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        guard req.query[String.self, at: "scope"] == "others" else {
            throw LatchError.invalid("scope", ["must_be_others"])
        }
        try await sessions(req).signOutOthers()
        return .noContent
    }

    func logout(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        try await sessions(req).signOutHere()
        return .noContent
    }
}

extension SessionRoutes {
    /// `SessionService` for the signed-in session.
    func sessions(_ req: LatchRequest) throws -> SessionService {
        SessionService(latch: latch, caller: try req.caller, db: database(req))
    }
}
