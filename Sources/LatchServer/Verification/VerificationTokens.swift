import FluentKit
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
        user: UUID, session: UUID?, action: String, digest: String, methods: [VerificationMethodKind],
        plan: VerificationPlan, now: Double, on database: any Database
    ) async throws -> String {
        let token = RandomSecrets.token()
        // A direct statement on the verification's hot path (issue 29 §3).
        try await database.sql.raw(
            """
            INSERT INTO verification_tokens
              (token_hash, user_id, action, digest, method, methods, amount, unit, verified_at, expires_at, session_id)
            VALUES (\(bind: SecretBox.hash(token)), \(bind: user), \(bind: action), \(bind: digest),
              \(bind: (methods.first ?? .biometric).rawValue), \(bind: VerificationPlan.list(methods)),
              \(bind: plan.amount?.description), \(bind: plan.unit), \(bind: now),
              \(bind: now + VerificationToken.lifetime), \(bind: session))
            """
        ).run()
        return token
    }

    /// Uses the token for exactly this action and digest (and this user, when one is given: a
    /// service redeeming with a service key gives none and learns the user from the answer), once.
    /// A token presented for anything else is refused and stays unused; a used one answers 409.
    ///
    /// Issue 30 §2: where the policy sets a daily limit for the token's unit, the redemption and the sum
    /// it adds to are one transaction that first writes the user's row, so two proofs redeemed together
    /// can never exceed the limit (one answers 403 POLICY_LIMIT and stays unused).
    func redeem(
        _ token: String, user: UUID?, action: String, digest: String, now: Double, holds: SecurityHolds,
        policy: VerificationPolicy, on database: any Database
    ) async throws -> RedeemedVerification {
        let limits = policy.policy(of: action).dailyLimit
        guard !limits.isEmpty,
            let row = try await database.sql.raw(
                """
                SELECT user_id, amount, unit FROM verification_tokens
                WHERE token_hash = \(bind: SecretBox.hash(token)) AND action = \(bind: action)
                """
            ).first(),
            let unit = try row.decode(column: "unit", as: String?.self), let limit = limits[unit],
            let amount = try row.decode(column: "amount", as: String?.self).flatMap(PolicyAmount.init)
        else {
            return try await use(
                token, user: user, action: action, digest: digest, now: now, holds: holds, on: database)
        }
        let owner = try row.decode(column: "user_id", as: UUID.self)
        return try await database.tracedTransaction { database in
            try await database.lockUserRow(owner)
            let redeemed = try await use(
                token, user: user, action: action, digest: digest, now: now, holds: holds, on: database)
            let spent = try await PolicyLedger().spent(user: owner, action: action, unit: unit, now: now, on: database)
            guard spent <= limit else {
                let before = PolicyAmount(exactly: spent.value - amount.value)
                throw PolicyLedger.refusal(unit: unit, limit: limit, remaining: .remaining(of: limit, after: before))
            }
            return redeemed
        }
    }

    /// Marks the token redeemed when everything holds; otherwise says why not.
    private func use(
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
            RETURNING user_id, method, methods, verified_at
            """
        ).all()
        if let row = rows.first {
            let first = try row.decode(column: "method", as: VerificationMethodKind.self)
            let methods = try row.decode(column: "methods", as: String?.self).map(VerificationPlan.kindList) ?? []
            return RedeemedVerification(
                userId: try row.decode(column: "user_id", as: UUID.self).uuidString.lowercased(), action: action,
                methods: methods.isEmpty ? [first] : methods,
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
