import Fluent
import LatchCore
import Vapor

/// C8/C9: list the signed-in devices, sign one out, sign out all others, and sign out here.
struct SessionRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let signedIn = routes.grouped("v1").grouped(RequireSignedIn())
        signedIn.get("sessions", use: list)
        signedIn.delete("sessions", ":id", use: revokeOne)
        signedIn.delete("sessions", use: revokeOthers)
        signedIn.post("logout", use: logout)
    }

    func list(_ req: Request) async throws -> [SessionInfo] {
        let me = try req.signedIn
        let now = req.latch.clock.epochSeconds
        let sessions = try await Session.query(on: req.db)
            .filter(\.$userID == me.userID)
            .filter(\.$revokedAt == nil)
            .filter(\.$refreshExpiresAt > now)
            .sort(\.$lastActiveAt, .descending)
            .all()
        return sessions.map { $0.info(current: me.sessionID) }
    }

    func revokeOne(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw LatchError.notFound }
        let latch = req.latch
        let now = latch.clock.epochSeconds
        // The revocation, its event and the owner's notice commit together; this instance's status cache
        // hears of it only after the commit (issue 28 §2).
        try await latch.revocation.committing(on: req.db) { database in
            let revoked = try await latch.revocation.revoke(.one(id), of: me.userID, now: now, on: database)
            guard !revoked.isEmpty else { throw LatchError.notFound }
            if id == me.sessionID {
                try await latch.events.record(
                    .sessionRevoked, user: me.userID, session: id, ip: req.clientIP, now: now, on: database)
            } else {
                try await req.securityChanged(.sessionEnded, on: database)
            }
        }
        return .noContent
    }

    func revokeOthers(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        guard req.query[String.self, at: "scope"] == "others" else {
            throw LatchError.invalid("scope", ["must_be_others"])
        }
        let latch = req.latch
        let now = latch.clock.epochSeconds
        // Signing everyone else out is mailed (issue 28: it was silent), committed with the revocation.
        try await latch.revocation.committing(on: req.db) { database in
            try await latch.revocation.revoke(.allExcept(me.sessionID), of: me.userID, now: now, on: database)
            try await req.securityChanged(.otherSessionsEnded, on: database)
        }
        return .noContent
    }

    func logout(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        let now = req.latch.clock.epochSeconds
        try await req.latch.revocation.revoke(.one(me.sessionID), of: me.userID, now: now, on: req.db)
        try await req.latch.events.record(
            .signedOut, user: me.userID, session: me.sessionID, ip: req.clientIP, now: now, on: req.db)
        return .noContent
    }
}
