import FluentKit
import Foundation
import SQLKit

/// The statements on `freeze_tokens` (issue 44 §1): a link's token stored (as its hash), used once, and
/// an account's older links expired. What a link is and how long it lives is `FreezeTokens`'.
struct FreezeTokenStore: Sendable {
    /// Stores the token of `tokenHash` for `user`, minted at `now` and valid until `expiresAt`.
    func insert(tokenHash: String, user: UUID, now: Double, expiresAt: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            INSERT INTO freeze_tokens (token_hash, user_id, created_at, expires_at)
            VALUES (\(bind: tokenHash), \(bind: user), \(bind: now), \(bind: expiresAt))
            """
        ).run()
    }

    /// Marks the token of `tokenHash` used at `now` if it is live and unused (one conditional update);
    /// its user, or nil.
    func use(tokenHash: String, now: Double, on database: any Database) async throws -> UUID? {
        try await database.sql.useOnce(
            FreezeTokens.schema, mark: "used_at", where: "token_hash = \(bind: tokenHash)", now: now,
            returning: ["user_id"]
        )?.decode(column: "user_id", as: UUID.self)
    }

    /// Ends at `now` every unused live token of `user` minted up to `frozenAt`.
    func expire(mintedBy frozenAt: Double, of user: UUID, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE freeze_tokens SET expires_at = \(bind: now)
            WHERE user_id = \(bind: user) AND created_at <= \(bind: frozenAt) AND used_at IS NULL AND expires_at > \(bind: now)
            """
        ).run()
    }
}
