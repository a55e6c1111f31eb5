import Fluent
import Foundation
import LatchCore
import SQLKit

/// Issues and redeems verification tokens (D3): 256 random bits, stored as SHA-256, single use,
/// 5 minutes, bound to user, action and the parameters' digest.
struct VerificationTokens: Sendable {
    func issue(
        user: UUID, action: String, digest: String, method: VerificationMethodKind, now: Double,
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
        try await record.create(on: database)
        return token
    }

    /// Uses the token for exactly this action and digest (and this user, when one is given: a
    /// service redeeming with a service key gives none and learns the user from the answer), once.
    /// A token presented for anything else is refused and stays unused; a used one answers 409.
    func redeem(_ token: String, user: UUID?, action: String, digest: String, now: Double, on database: any Database)
        async throws
        -> RedeemedVerification
    {
        let hash = SecretBox.hash(token)
        let userFilter: SQLQueryString = if let user { "AND user_id = \(bind: user)" } else { "" }
        let rows = try await database.sql.raw(
            """
            UPDATE verification_tokens SET redeemed_at = \(bind: now)
            WHERE token_hash = \(bind: hash) AND redeemed_at IS NULL AND expires_at > \(bind: now)
              AND action = \(bind: action) AND digest = \(bind: digest) \(userFilter)
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
            existing.action == action, existing.digest == digest, existing.redeemedAt != nil
        {
            throw LatchError(.conflict, status: .conflict)
        }
        throw LatchError(.verificationInvalid, status: .forbidden)
    }
}
