import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of C8/C9 (list the signed-in devices, sign one out, sign out all others, sign out
/// here): each handler parses its request once and calls one method of `SessionService`.
struct SessionRoutes: LatchRouteCollection {
    func boot(routes: LatchRoutes) throws {
        let signedIn = routes.grouped("v1").grouped(RequireSignedIn())
        signedIn.get("sessions", use: list)
        signedIn.delete("sessions", ":id", use: revokeOne)
        signedIn.delete("sessions", use: revokeOthers)
        signedIn.post("logout", use: logout)
    }

    func list(_ req: LatchRequest) async throws -> [SessionInfo] {
        try await req.sessions.list()
    }

    func revokeOne(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        guard let id = req.idParameter else { throw LatchError.notFound }
        try await req.sessions.signOut(id)
        return .noContent
    }

    func revokeOthers(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        guard req.query[String.self, at: "scope"] == "others" else {
            throw LatchError.invalid("scope", ["must_be_others"])
        }
        try await req.sessions.signOutOthers()
        return .noContent
    }

    func logout(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        try await req.sessions.signOutHere()
        return .noContent
    }
}

extension LatchRequest {
    /// `SessionService` for the signed-in session.
    var sessions: SessionService {
        get throws { SessionService(latch: latch, caller: try caller, db: db) }
    }
}
