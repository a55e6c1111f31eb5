import Fluent
import LatchCore
import Vapor

/// `GET`/`PATCH /v1/me/security-settings`: "verify unusual sign-ins" (on by default).
struct SecuritySettingsRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let settings = routes.grouped("v1", "me", "security-settings").grouped(RequireSignedIn())
        settings.get(use: show)
        settings.patch(use: update)
    }

    func show(_ req: Request) async throws -> SecuritySettings {
        SecuritySettings(verifyUnusualSignIns: try await user(req).verifyUnusualSignIns)
    }

    func update(_ req: Request) async throws -> SecuritySettings {
        let body = try req.decodeJSON(SecuritySettingsUpdate.self)
        let user = try await user(req)
        if let verify = body.verifyUnusualSignIns { user.verifyUnusualSignIns = verify }
        try await user.save(on: req.db)
        let me = try req.signedIn
        try await req.latch.events.record(
            .securitySettingsChanged, user: me.userID, session: me.sessionID, ip: req.clientIP,
            now: req.latch.clock.epochSeconds, on: req.db)
        return SecuritySettings(verifyUnusualSignIns: user.verifyUnusualSignIns)
    }

    private func user(_ req: Request) async throws -> User {
        guard let user = try await User.find(try req.signedIn.userID, on: req.db) else { throw LatchError.sessionExpired }
        return user
    }
}
