import Foundation
import LatchCore
import Vapor

extension Request {
    /// The admin service for this request, when it carries an admin key (`Authorization: Bearer KEY`,
    /// one of `LATCH_ADMIN_KEYS`); otherwise 401 AUTH_004 (also when no key is configured: the admin
    /// routes then exist but let nobody in). A user's access token is never an admin key.
    ///
    /// Wrong keys are priced per client (`RateLimitedAction.adminAuth`, 429 past the limit); the
    /// charge is taken before the comparison and given back when the key is right.
    func adminService() throws -> AdminService {
        let latch = self.latch
        try chargeRateLimit(.adminAuth)
        guard let presented = headers.bearerAuthorization?.token,
            let actor = AdminKeys(latch.config.adminKeys).actor(presenting: presented)
        else { throw LatchError.sessionExpired }
        latch.rateLimiter.refund(.adminAuth, client: rateLimitClientKey, now: latch.clock.epochSeconds)
        return AdminService(
            latch: latch, database: db, actor: actor, ip: clientIP, language: language,
            deletion: AccountDeletion(request: self))
    }
}
