import FluentKit
import Foundation

/// The one-time "this wasn't me" links of security mails (issue 19 §3): 32 random bytes (base64url),
/// stored only as SHA-256, valid 7 days, used at most once (one conditional update decides, also
/// across instances). The link is `{LATCH_ISSUER}/account#freeze=TOKEN`: in the fragment, so the token
/// never reaches a server log; the `/account` page posts it to `POST /v1/freeze`.
enum FreezeTokens {
    static let schema = "freeze_tokens"
    static let lifetime: Double = 7 * 24 * 3600

    /// A new token for `user`'s account.
    static func mint(for user: UUID, now: Double, on database: any Database) async throws -> String {
        let token = RandomSecrets.token()
        try await FreezeTokenStore().insert(
            tokenHash: SecretBox.hash(token), user: user, now: now, expiresAt: now + lifetime, on: database)
        return token
    }

    /// Uses `token` if it is live and unused; its user, or nil (unknown, expired or used).
    static func use(_ token: String, now: Double, on database: any Database) async throws -> UUID? {
        try await FreezeTokenStore().use(tokenHash: SecretBox.hash(token), now: now, on: database)
    }

    /// Expires `user`'s unused links minted up to `frozenAt` (issue 28 §2: on recovery, a link from a
    /// mail the thief may have read cannot freeze the account again; links minted since keep working).
    static func expire(mintedBy frozenAt: Double, of user: UUID, now: Double, on database: any Database) async throws {
        try await FreezeTokenStore().expire(mintedBy: frozenAt, of: user, now: now, on: database)
    }

    /// The link a mail carries.
    static func link(issuer: String, token: String) -> String {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        return "\(base)/account#freeze=\(token)"
    }
}
