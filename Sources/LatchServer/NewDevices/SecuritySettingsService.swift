import FluentKit
import Foundation
import LatchCore

/// The caller's security settings, without HTTP (issue 29 §1): "verify unusual sign-ins" and
/// "新设备登录时通知" (both on by default), and which second factors are set up. Turning either off is
/// itself protected (a recent sign-in or a proof for `disable_unusual_sign_in_check` /
/// `disable_new_device_notice`) and is a security change (mailed, issue 28). `SecuritySettingsRoutes` is
/// its HTTP edge.
struct SecuritySettingsService: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database

    /// The settings as they are.
    func show() async throws -> SecuritySettings {
        try await settings(of: try await user())
    }

    /// Applies `update` and answers the settings after it.
    func update(_ update: SecuritySettingsUpdate) async throws -> SecuritySettings {
        let user = try await user()
        let stepUp = StepUp(latch: latch, caller: caller, db: db)
        // Turning a protection off is itself protected: a stolen access token must not remove it.
        let turnsCheckOff = update.verifyUnusualSignIns == false && user.verifyUnusualSignIns
        if turnsCheckOff {
            try await stepUp.requireRecentSignIn(orProof: update.verificationToken, action: .disableUnusualSignInCheck)
        }
        let turnsNoticeOff = update.notifyNewDevices == false && user.notifyNewDevices
        if turnsNoticeOff {
            try await stepUp.requireRecentSignIn(orProof: update.verificationToken, action: .disableNewDeviceNotice)
        }
        if let verify = update.verifyUnusualSignIns { user.verifyUnusualSignIns = verify }
        if let notify = update.notifyNewDevices { user.notifyNewDevices = notify }
        let (latch, caller) = (self.latch, self.caller)
        // Turning a protection off is a security change (issue 28: "verify unusual sign-ins" went off
        // silently); turning one on only records the event. The settings, the events and the notices
        // commit together (issue 20 §1).
        var changes: [SecurityChange.Kind] = []
        if turnsCheckOff { changes.append(.unusualSignInCheckTurnedOff) }
        if turnsNoticeOff { changes.append(.newDeviceNoticeTurnedOff) }
        try await db.tracedTransaction { [changes] database in
            try await latch.accounts.save(user, on: database)
            for change in changes {
                try await latch.securityChanges.apply(SecurityChange(change), by: caller.changeActor, on: database)
            }
            if changes.isEmpty {
                try await latch.events.record(
                    .securitySettingsChanged, user: caller.user, session: caller.session, ip: caller.ip,
                    now: latch.clock.epochSeconds, on: database)
            }
        }
        return try await settings(of: user)
    }

    private func settings(of user: User) async throws -> SecuritySettings {
        SecuritySettings(
            verifyUnusualSignIns: user.verifyUnusualSignIns, notifyNewDevices: user.notifyNewDevices,
            factors: try await AccountExport.Factors.collect(userID: user.requireID(), on: db))
    }

    private func user() async throws -> User {
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        return user
    }
}
