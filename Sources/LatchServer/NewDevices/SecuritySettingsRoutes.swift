import Fluent
import LatchCore
import Vapor

/// `GET`/`PATCH /v1/me/security-settings`: "verify unusual sign-ins" (on by default; turning it off
/// needs a recent sign-in or a verification of `disable_unusual_sign_in_check`), and which second
/// factors are set up (`factors`, so a settings screen needs no export).
struct SecuritySettingsRoutes: RouteCollection {
    static let disableAction = "disable_unusual_sign_in_check"

    func boot(routes: any RoutesBuilder) throws {
        let settings = routes.grouped("v1", "me", "security-settings").grouped(RequireSignedIn())
        settings.get(use: show)
        settings.patch(use: update)
    }

    func show(_ req: Request) async throws -> SecuritySettings {
        let user = try await user(req)
        return SecuritySettings(
            verifyUnusualSignIns: user.verifyUnusualSignIns,
            factors: try await AccountExport.Factors.collect(userID: user.requireID(), on: req.db))
    }

    func update(_ req: Request) async throws -> SecuritySettings {
        let body = try req.decodeJSON(SecuritySettingsUpdate.self)
        let user = try await user(req)
        if body.verifyUnusualSignIns == false, user.verifyUnusualSignIns {
            // Turning a protection off is itself protected: a stolen access token must not remove it.
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: Self.disableAction)
        }
        if let verify = body.verifyUnusualSignIns { user.verifyUnusualSignIns = verify }
        try await user.save(on: req.db)
        let me = try req.signedIn
        try await req.latch.events.record(
            .securitySettingsChanged, user: me.userID, session: me.sessionID, ip: req.clientIP,
            now: req.latch.clock.epochSeconds, on: req.db)
        return SecuritySettings(
            verifyUnusualSignIns: user.verifyUnusualSignIns,
            factors: try await AccountExport.Factors.collect(userID: user.requireID(), on: req.db))
    }

    private func user(_ req: Request) async throws -> User {
        guard let user = try await User.find(try req.signedIn.userID, on: req.db) else {
            throw LatchError.sessionExpired
        }
        return user
    }
}
