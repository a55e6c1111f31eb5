import FluentKit
import Foundation
import SQLKit

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
        try await database.sql.raw(
            """
            INSERT INTO freeze_tokens (token_hash, user_id, created_at, expires_at)
            VALUES (\(bind: SecretBox.hash(token)), \(bind: user), \(bind: now), \(bind: now + lifetime))
            """
        ).run()
        return token
    }

    /// Uses `token` if it is live and unused; its user, or nil (unknown, expired or used).
    static func use(_ token: String, now: Double, on database: any Database) async throws -> UUID? {
        try await database.sql.useOnce(
            schema, mark: "used_at", where: "token_hash = \(bind: SecretBox.hash(token))", now: now,
            returning: ["user_id"]
        )?.decode(column: "user_id", as: UUID.self)
    }

    /// Expires `user`'s unused links minted up to `frozenAt` (issue 28 §2: on recovery, a link from a
    /// mail the thief may have read cannot freeze the account again; links minted since keep working).
    static func expire(mintedBy frozenAt: Double, of user: UUID, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE freeze_tokens SET expires_at = \(bind: now)
            WHERE user_id = \(bind: user) AND created_at <= \(bind: frozenAt) AND used_at IS NULL AND expires_at > \(bind: now)
            """
        ).run()
    }

    /// The link a mail carries.
    static func link(issuer: String, token: String) -> String {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        return "\(base)/account#freeze=\(token)"
    }
}
