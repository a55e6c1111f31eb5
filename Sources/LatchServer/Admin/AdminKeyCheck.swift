import FluentKit
import Foundation
import HTTPTypes
import LatchCore

/// The door of the admin routes: a request's admin key (`Authorization: Bearer KEY`, one of
/// `LATCH_ADMIN_KEYS`) opens `AdminService`; anything else is 401 AUTH_004 (also when no key is configured:
/// the admin routes then exist but let nobody in). A user's access token is never an admin key.
///
/// The key is compared first (issue 20 §6): a right key is never charged to any bucket, so wrong keys from
/// anywhere can never make latchd refuse an operator. Only wrong or missing keys are priced
/// (`RateLimitedAction.adminAuth`, 429 past the limit) and audited: action `authenticate`, result
/// `AUTH_004`, actor `key:{fingerprint of the presented key}` (`key:none` without one) — never the key — at
/// most as many rows as `AdminAuthFailureAudit` admits.
struct AdminKeyCheck: Sendable {
    let latch: LatchServices
    let database: RequestDatabase
    /// Apple's token endpoint, for the Apple grants revoked when an operator deletes an account.
    let appleTokens: AppleTokenEndpoint?
    let failureAudit: AdminAuthFailureAudit

    /// The admin service for `req`, when it carries an admin key; otherwise 401 AUTH_004.
    func service(for req: LatchRequest) async throws -> AdminService {
        let presented = req.headers.bearerToken
        if let presented, let actor = AdminKeys(latch.config.adminKeys).actor(presenting: presented) {
            return AdminService(
                latch: latch, database: database(req), actor: actor, ip: req.clientIP, language: req.language,
                deletion: AccountDeletion(latch: latch, appleTokens: appleTokens, logger: req.logger))
        }
        try latch.chargeRateLimit(.adminAuth, for: req)
        if failureAudit.admits(client: req.rateLimitClientKey, now: latch.clock.epochSeconds) {
            let actor = AdminActor.key(fingerprint: presented.map(AdminKeys.fingerprint(of:)) ?? "none")
            do {
                let entry = AdminAuditEntry(
                    actor: actor, action: "authenticate", target: nil, ip: req.clientIP,
                    at: latch.clock.epochSeconds, result: LatchErrorCode.sessionExpired.rawValue)
                try await AdminAuditStore().append(entry, on: database(req))
            } catch {
                req.logger.warning("a failed admin authentication could not be audited")
            }
        }
        throw LatchError.sessionExpired
    }
}
