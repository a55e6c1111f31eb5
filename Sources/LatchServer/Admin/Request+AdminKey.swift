import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import LatchCore

extension LatchRequest {
    /// The admin service for this request, when it carries an admin key (`Authorization: Bearer KEY`,
    /// one of `LATCH_ADMIN_KEYS`); otherwise 401 AUTH_004 (also when no key is configured: the admin
    /// routes then exist but let nobody in). A user's access token is never an admin key.
    ///
    /// The key is compared first (issue 20 §6): a right key is never charged to any bucket, so wrong
    /// keys from anywhere can never make latchd refuse an operator. Only wrong or missing keys are
    /// priced (`RateLimitedAction.adminAuth`, 429 past the limit) and audited: action
    /// `authenticate`, result `AUTH_004`, actor `key:{fingerprint of the presented key}` (`key:none`
    /// without one) — never the key — at most as many rows as `AdminAuthFailureAudit` admits.
    func adminService() async throws -> AdminService {
        let latch = self.latch
        let presented = headers.bearerToken
        if let presented, let actor = AdminKeys(latch.config.adminKeys).actor(presenting: presented) {
            return AdminService(
                latch: latch, database: db, actor: actor, ip: clientIP, language: language,
                deletion: AccountDeletion(
                    latch: latch, appleTokens: identityServices.appleTokens, logger: logger))
        }
        try chargeRateLimit(.adminAuth)
        if latchApplication.adminAuthFailureAudit.admits(
            client: rateLimitClientKey, now: latch.clock.epochSeconds)
        {
            let actor = AdminActor.key(fingerprint: presented.map(AdminKeys.fingerprint(of:)) ?? "none")
            do {
                let entry = AdminAuditEntry(
                    actor: actor, action: "authenticate", target: nil, ip: clientIP, at: latch.clock.epochSeconds,
                    result: LatchErrorCode.sessionExpired.rawValue)
                try await AdminAuditStore().append(entry, on: db)
            } catch {
                logger.warning("a failed admin authentication could not be audited")
            }
        }
        throw LatchError.sessionExpired
    }
}
