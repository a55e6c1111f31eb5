import Fluent
import Foundation
import LatchCore
import NIOHTTP1
import SQLKit

/// Issues and redeems verification tokens (D3): 256 random bits, stored as SHA-256, single use,
/// 5 minutes, bound to user, action and the parameters' digest.
///
/// Issue 19 §1: a token is redeemed only while its account is neither disabled, frozen nor deleted and
/// the session that passed the verification is live; issue 19 §2: a token for an action a running
/// security hold pauses is refused with 403 SECURITY_HOLD (and stays unused).
struct VerificationTokens: Sendable {
    func issue(
        user: UUID, session: UUID?, action: String, digest: String, method: VerificationMethodKind, now: Double,
        on database: any Database
    ) async throws
        -> String
    {
        let token = RandomSecrets.token()
        let record = VerificationToken()
        record.id = SecretBox.hash(token)
        record.userID = user
        record.action = action
        record.digest = digest
        record.method = method.rawValue
        record.verifiedAt = now
        record.expiresAt = now + VerificationToken.lifetime
        record.sessionID = session
        try await record.create(on: database)
        return token
    }

    /// Uses the token for exactly this action and digest (and this user, when one is given: a
    /// service redeeming with a service key gives none and learns the user from the answer), once.
    /// A token presented for anything else is refused and stays unused; a used one answers 409.
    func redeem(
        _ token: String, user: UUID?, action: String, digest: String, now: Double, holds: SecurityHolds,
        on database: any Database
    ) async throws -> RedeemedVerification {
        let hash = SecretBox.hash(token)
        let userFilter: SQLQueryString = if let user { "AND user_id = \(bind: user)" } else { "" }
        let held = holds.pauses(action)
        let holdFilter: SQLQueryString =
            held
            ? """
            AND NOT EXISTS (SELECT 1 FROM security_holds h
              WHERE h.user_id = verification_tokens.user_id AND h.hold_until > \(bind: now))
            """ : ""
        let rows = try await database.sql.raw(
            """
            UPDATE verification_tokens SET redeemed_at = \(bind: now)
            WHERE token_hash = \(bind: hash) AND redeemed_at IS NULL AND expires_at > \(bind: now)
              AND action = \(bind: action) AND digest = \(bind: digest) \(userFilter)
              AND EXISTS (SELECT 1 FROM users u WHERE u.id = verification_tokens.user_id
                AND u.disabled_at IS NULL AND u.frozen_at IS NULL AND u.deleted_at IS NULL)
              AND (session_id IS NULL OR EXISTS (SELECT 1 FROM sessions s
                WHERE s.id = verification_tokens.session_id AND s.revoked_at IS NULL))
              \(holdFilter)
            RETURNING user_id, method, verified_at
            """
        ).all()
        if let row = rows.first {
            return RedeemedVerification(
                userId: try row.decode(column: "user_id", as: UUID.self).uuidString.lowercased(), action: action,
                method: try row.decode(column: "method", as: VerificationMethodKind.self),
                verifiedAt: Date(timeIntervalSince1970: try row.decode(column: "verified_at", as: Double.self)))
        }
        if let existing = try await VerificationToken.find(hash, on: database), user == nil || existing.userID == user,
            existing.action == action, existing.digest == digest
        {
            if existing.redeemedAt != nil { throw LatchError(.conflict) }
            if held, existing.expiresAt > now,
                let hold = try await holds.running(of: existing.userID, now: now, on: database)
            {
                throw holds.refusal(hold, action: action)
            }
        }
        throw LatchError(.verificationInvalid)
    }
}
