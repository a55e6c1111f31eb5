import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The caller's containment (issue 19), without HTTP (issue 29 §1): the running hold and the
/// anti-phishing code, setting or removing that code, and freezing the account. `AccountSecurityRoutes`
/// is its HTTP edge.
struct AccountSecurityService: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database

    private var stepUp: StepUp { StepUp(latch: latch, caller: caller, db: db) }

    /// `GET /v1/me/security`: the running hold, and the anti-phishing code — itself only to a session
    /// that signed in within 10 minutes, masked otherwise (issue 28 §2: an old stolen token must not read it).
    func status() async throws -> AccountSecurityStatus {
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        let holds = latch.holds
        let running = try await holds.running(of: caller.user, now: latch.clock.epochSeconds, on: db)
        let recent = try await stepUp.signedInRecently()
        return AccountSecurityStatus(
            holds: running.map { [holds.info($0)] } ?? [],
            antiPhishingCode: recent ? user.antiPhishingCode : user.antiPhishingCode.map(AntiPhishingCode.masked))
    }

    /// Sets (`code`) or removes (nil) the anti-phishing code: a recent sign-in or a proof for
    /// `set_anti_phishing_code`; the code, its event and the notice (showing the new code, with a freeze
    /// link) commit together (issue 20 §1).
    func changeAntiPhishingCode(to code: String?, proof: String?) async throws {
        let code = try code.map(AntiPhishingCode.validated)
        try await stepUp.requireRecentSignIn(orProof: proof, action: AntiPhishingCode.action)
        let (latch, caller) = (self.latch, self.caller)
        try await db.tracedTransaction { database in
            guard try await latch.accounts.setAntiPhishingCode(code, of: caller.user, on: database) else {
                throw LatchError.sessionExpired
            }
            try await latch.securityChanges.apply(
                SecurityChange(code == nil ? .antiPhishingCodeRemoved : .antiPhishingCodeSet), by: caller.changeActor,
                on: database)
        }
    }

    /// The signed-in owner freezes the account (no step-up: freezing must be easy); this session ends
    /// with the others.
    func freeze() async throws {
        try await AccountFreezing.freeze(
            caller.user, by: .owner, session: caller.session, ip: caller.ip, latch: latch, on: db)
    }
}
