import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge (the rules are `SecuritySettingsService`'s) of `GET`/`PATCH /v1/me/security-settings`:
/// "verify unusual sign-ins" (on by default; turning it off needs a recent sign-in or a verification of
/// `disable_unusual_sign_in_check`), "新设备登录时通知"
/// (`notify_new_devices`, on by default; turning it off needs a recent sign-in or a verification of
/// `disable_new_device_notice` and is mailed as a security notice), and which second factors are set up
/// (`factors`, so a settings screen needs no export).
struct SecuritySettingsRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    static let disableAction = VerificationAction.disableUnusualSignInCheck
    /// The step-up action that turns the new-device notice off without a recent sign-in.
    static let disableNoticeAction = VerificationAction.disableNewDeviceNotice

    func boot(routes: LatchRoutes) throws {
        let settings = routes.grouped("v1", "me", "security-settings").signedIn()
        settings.get(use: show)
        settings.patch(use: update)
    }

    func show(_ req: LatchRequest) async throws -> SecuritySettings {
        try await securitySettings(req).show()
    }

    func update(_ req: LatchRequest) async throws -> SecuritySettings {
        try await securitySettings(req).update(try req.decodeJSON(SecuritySettingsUpdate.self))
    }
}

extension SecuritySettingsRoutes {
    /// `SecuritySettingsService` for the signed-in session.
    func securitySettings(_ req: LatchRequest) throws -> SecuritySettingsService {
        SecuritySettingsService(latch: latch, caller: try req.caller, db: database(req))
    }
}
