import FluentKit
import Foundation
import LatchCore

/// Issues and redeems verification tokens (D3): 256 random bits, stored as SHA-256, single use,
/// 5 minutes, bound to user, action and the parameters' digest.
///
/// Issue 19 §1: a token is redeemed only while its account is neither disabled, frozen nor deleted and
/// the session that passed the verification is live; issue 19 §2: a token for an action a running
/// security hold pauses is refused with 403 SECURITY_HOLD (and stays unused).
struct VerificationTokens: Sendable {
    /// The table's statements.
    let store = VerificationTokenStore()

    /// Issues the proof of `user`'s passed verification of `action` (parameters digest `digest`): a new
    /// random token, of which only the hash is stored.
    func issue(
        user: UUID, session: UUID?, action: VerificationAction, digest: String, methods: [VerificationMethodKind],
        plan: VerificationPlan, now: Double, on database: any Database
    ) async throws -> String {
        let token = RandomSecrets.token()
        try await store.insert(
            SecretBox.hash(token), user: user, session: session, action: action, digest: digest, methods: methods,
            plan: plan, now: now, on: database)
        return token
    }

    /// Whose token `token` is (nil for a token never issued), to tell its owner of a refused redemption.
    func owner(of token: String, on database: any Database) async throws -> UUID? {
        try await store.find(SecretBox.hash(token), on: database)?.userID
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
        _ token: String, user: UUID?, action: VerificationAction, parameters: [String: String], now: Double,
        holds: SecurityHolds, policy: VerificationPolicy, on database: any Database
    ) async throws -> RedeemedVerification {
        let digest = CanonicalParameters.digest(parameters)
        let rules = policy.policy(of: action)
        guard !rules.dailyLimit.isEmpty || !rules.tiers.isEmpty || rules.newValueLock != nil,
            let priced = try await store.priced(SecretBox.hash(token), action: action, on: database)
        else {
            return try await use(
                token, user: user, action: action, digest: digest, now: now, holds: holds, on: database
            ).redeemed
        }
        let owner = priced.owner
        return try await database.tracedTransaction { database in
            try await database.lockUserRow(owner)
            var spent = PolicyAmount.zero
            if let amount = priced.amount, rules.judgesDailySum(in: amount.unit) {
                spent = try await PolicyLedger().spent(
                    user: owner, action: action, unit: amount.unit, now: now, on: database)
            }
            let (redeemed, session) = try await use(
                token, user: user, action: action, digest: digest, now: now, holds: holds, on: database)
            if let amount = priced.amount {
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
                    value, parameter: lock.parameter, action: action.rawValue, user: owner, session: session,
                    now: now, on: database)
            }
            return redeemed
        }
    }

    /// Marks the token redeemed when everything holds; otherwise says why not.
    private func use(
        _ token: String, user: UUID?, action: VerificationAction, digest: String, now: Double, holds: SecurityHolds,
        on database: any Database
    ) async throws -> (redeemed: RedeemedVerification, session: UUID?) {
        let hash = SecretBox.hash(token)
        let held = holds.pauses(action.rawValue)
        if let used = try await store.use(
            hash, user: user, action: action, digest: digest, heldOut: held, now: now, on: database)
        {
            let redeemed = RedeemedVerification(
                userId: used.owner.uuidString.lowercased(), action: action.rawValue, methods: used.methods,
                verifiedAt: Date(timeIntervalSince1970: used.verifiedAt))
            return (redeemed, used.session)
        }
        if let existing = try await store.find(hash, on: database), user == nil || existing.userID == user,
            existing.action == action.rawValue, existing.digest == digest
        {
            if existing.redeemedAt != nil { throw LatchError(.conflict) }
            if held, existing.expiresAt > now,
                let hold = try await holds.running(of: existing.userID, now: now, on: database)
            {
                throw holds.refusal(hold, action: action.rawValue)
            }
        }
        throw LatchError(.verificationInvalid)
    }
}
