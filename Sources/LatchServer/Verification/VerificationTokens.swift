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

    /// Whose token `token` is (nil for a token never issued), to tell its owner of a refused redemption.
    func owner(of token: String, on database: any Database) async throws -> UUID? {
        try await VerificationToken.find(SecretBox.hash(token), on: database)?.userID
    }

    /// Uses the token for exactly this action and these parameters (and this user, when one is given: a
    /// service redeeming with a service key gives none and learns the user from the answer), once.
    /// A token presented for anything else is refused and stays unused; a used one answers 409.
    ///
    /// Where the action's policy has tiers, a daily limit or a new-value lock, the redemption is one
    /// transaction that first writes the user's row, so redemptions of one user take turns:
    /// - issue 30 §2: two proofs redeemed together can never exceed the daily limit (one answers 403
    ///   POLICY_LIMIT and stays unused);
    /// - issue 41 P2: the proof's factors must still meet the tier that the amount plus what the user
    ///   redeemed in the last 24 hours reaches, so proofs started together under a threshold cannot add up
    ///   past it with one factor each (403 VERIFICATION_REQUIRED, `reasons: ["sum_above_threshold"]`, the
    ///   proof unused: a new verification asks for the tier's factors);
    /// - issue 41 P3: the locked parameter's value is trusted from its first redemption after its lock.
    func redeem(
        _ token: String, user: UUID?, action: String, parameters: [String: String], now: Double,
        holds: SecurityHolds, policy: VerificationPolicy, on database: any Database
    ) async throws -> RedeemedVerification {
        let digest = CanonicalParameters.digest(parameters)
        let rules = policy.policy(of: action)
        guard !rules.dailyLimit.isEmpty || !rules.tiers.isEmpty || rules.newValueLock != nil,
            let row = try await database.sql.raw(
                """
                SELECT user_id, amount, unit FROM verification_tokens
                WHERE token_hash = \(bind: SecretBox.hash(token)) AND action = \(bind: action)
                """
            ).first()
        else {
            return try await use(
                token, user: user, action: action, digest: digest, now: now, holds: holds, on: database
            ).redeemed
        }
        let owner = try row.decode(column: "user_id", as: UUID.self)
        let amount: (value: PolicyAmount, unit: String)? =
            if let unit = try row.decode(column: "unit", as: String?.self),
                let value = try row.decode(column: "amount", as: String?.self).flatMap(PolicyAmount.init)
            {
                (value, unit)
            } else {
                nil
            }
        return try await database.tracedTransaction { database in
            try await database.lockUserRow(owner)
            var spent = PolicyAmount.zero
            if let amount, rules.judgesDailySum(in: amount.unit) {
                spent = try await PolicyLedger().spent(
                    user: owner, action: action, unit: amount.unit, now: now, on: database)
            }
            let (redeemed, session) = try await use(
                token, user: user, action: action, digest: digest, now: now, holds: holds, on: database)
            if let amount {
                if let limit = rules.dailyLimit[amount.unit], spent + amount.value > limit {
                    throw PolicyLedger.refusal(
                        unit: amount.unit, limit: limit, remaining: .remaining(of: limit, after: spent))
                }
                let requirement = policy.requirement(for: action, amount: amount, spent: spent)
                guard requirement.isMet(by: redeemed.methods) else {
                    throw LatchError(
                        .verificationRequired, field: "verification_token", reasons: ["sum_above_threshold"])
                }
            }
            if let lock = rules.newValueLock, let value = parameters[lock.parameter] {
                try await PolicyValueLocks().trust(
                    value, parameter: lock.parameter, action: action, user: owner, session: session, now: now,
                    on: database)
            }
            return redeemed
        }
    }

    /// Marks the token redeemed when everything holds; otherwise says why not.
    private func use(
        _ token: String, user: UUID?, action: String, digest: String, now: Double, holds: SecurityHolds,
        on database: any Database
    ) async throws -> (redeemed: RedeemedVerification, session: UUID?) {
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
            RETURNING user_id, method, methods, verified_at, session_id
            """
        ).all()
        if let row = rows.first {
            let first = try row.decode(column: "method", as: VerificationMethodKind.self)
            let methods = try row.decode(column: "methods", as: String?.self).map(VerificationPlan.kindList) ?? []
            let redeemed = RedeemedVerification(
                userId: try row.decode(column: "user_id", as: UUID.self).uuidString.lowercased(), action: action,
                methods: methods.isEmpty ? [first] : methods,
                verifiedAt: Date(timeIntervalSince1970: try row.decode(column: "verified_at", as: Double.self)))
            return (redeemed, try row.decode(column: "session_id", as: UUID?.self))
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
