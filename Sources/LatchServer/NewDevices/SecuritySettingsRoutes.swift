import Fluent
import LatchCore
import Vapor

/// `GET`/`PATCH /v1/me/security-settings`: "verify unusual sign-ins" (on by default; turning it off
/// needs a recent sign-in or a verification of `disable_unusual_sign_in_check`), "新设备登录时通知"
/// (`notify_new_devices`, on by default; turning it off needs a recent sign-in or a verification of
/// `disable_new_device_notice` and is mailed as a security notice), and which second factors are set up
/// (`factors`, so a settings screen needs no export).
struct SecuritySettingsRoutes: RouteCollection {
    static let disableAction = VerificationAction.disableUnusualSignInCheck
    /// The step-up action that turns the new-device notice off without a recent sign-in.
    static let disableNoticeAction = VerificationAction.disableNewDeviceNotice

    func boot(routes: any RoutesBuilder) throws {
        let settings = routes.grouped("v1", "me", "security-settings").grouped(RequireSignedIn())
        settings.get(use: show)
        settings.patch(use: update)
    }

    func show(_ req: Request) async throws -> SecuritySettings {
        let user = try await user(req)
        return SecuritySettings(
            verifyUnusualSignIns: user.verifyUnusualSignIns, notifyNewDevices: user.notifyNewDevices,
            factors: try await AccountExport.Factors.collect(userID: user.requireID(), on: req.db))
    }

    func update(_ req: Request) async throws -> SecuritySettings {
        let body = try req.decodeJSON(SecuritySettingsUpdate.self)
        let user = try await user(req)
        // Turning a protection off is itself protected: a stolen access token must not remove it.
        let turnsCheckOff = body.verifyUnusualSignIns == false && user.verifyUnusualSignIns
        if turnsCheckOff {
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: Self.disableAction)
        }
        let turnsNoticeOff = body.notifyNewDevices == false && user.notifyNewDevices
        if turnsNoticeOff {
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: Self.disableNoticeAction)
        }
        if let verify = body.verifyUnusualSignIns { user.verifyUnusualSignIns = verify }
        if let notify = body.notifyNewDevices { user.notifyNewDevices = notify }
        let me = try req.signedIn
        let (latch, ip) = (req.latch, req.clientIP)
        // Turning a protection off is a security change (issue 28: "verify unusual sign-ins" went off
        // silently); turning one on only records the event. The settings, the events and the notices
        // commit together (issue 20 §1).
        var changes: [SecurityChange.Kind] = []
        if turnsCheckOff { changes.append(.unusualSignInCheckTurnedOff) }
        if turnsNoticeOff { changes.append(.newDeviceNoticeTurnedOff) }
        try await req.db.transaction { [changes] database in
            try await user.save(on: database)
            for change in changes { try await req.securityChanged(change, on: database) }
            if changes.isEmpty {
                try await latch.events.record(
                    .securitySettingsChanged, user: me.userID, session: me.sessionID, ip: ip,
                    now: latch.clock.epochSeconds, on: database)
            }
        }
        return SecuritySettings(
            verifyUnusualSignIns: user.verifyUnusualSignIns, notifyNewDevices: user.notifyNewDevices,
            factors: try await AccountExport.Factors.collect(userID: user.requireID(), on: req.db))
    }

    private func user(_ req: Request) async throws -> User {
        guard let user = try await User.find(try req.signedIn.userID, on: req.db) else {
            throw LatchError.sessionExpired
        }
        return user
    }
}
