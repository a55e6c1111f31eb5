import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The statements on `verification_tokens` (D3, issue 44 §1): a passed verification's proof, stored as its
/// SHA-256, looked up and used once. `VerificationTokens` holds the rules (the policy at redemption);
/// `PolicyLedger` sums what `redeemedAmounts` reads.
struct VerificationTokenStore: Sendable {
    /// A proof's amount under the policy, as issued.
    struct Priced {
        let owner: UUID
        /// The amount and its unit, when the action's policy priced it.
        let amount: (value: PolicyAmount, unit: String)?
    }

    /// A proof just used: whose, which factors passed (in order), when, and the session that passed it.
    struct Used {
        let owner: UUID
        let methods: [VerificationMethodKind]
        let verifiedAt: Double
        let session: UUID?
    }

    /// Records the proof `hash` of `user`'s verification of `action` (parameters digest `digest`), passed by
    /// `methods` (in order) under `plan`, from `session`, for `VerificationToken.lifetime` from `now`.
    func insert(
        _ hash: String, user: UUID, session: UUID?, action: VerificationAction, digest: String,
        methods: [VerificationMethodKind], plan: VerificationPlan, now: Double, on database: any Database
    ) async throws {
        // A direct statement on the verification's hot path (issue 29 §3).
        try await database.sql.raw(
            """
            INSERT INTO verification_tokens
              (token_hash, user_id, action, digest, method, methods, amount, unit, verified_at, expires_at, session_id)
            VALUES (\(bind: hash), \(bind: user), \(bind: action.rawValue), \(bind: digest),
              \(bind: (methods.first ?? .biometric).rawValue), \(bind: VerificationPlan.list(methods)),
              \(bind: plan.amount?.description), \(bind: plan.unit), \(bind: now),
              \(bind: now + VerificationToken.lifetime), \(bind: session))
            """
        ).run()
    }

    /// The proof `hash` as stored (nil for one never issued).
    func find(_ hash: String, on database: any Database) async throws -> VerificationToken? {
        try await VerificationToken.find(hash, on: database)
    }

    /// The owner and amount of the proof `hash` when it is one for `action` (nil otherwise).
    func priced(_ hash: String, action: VerificationAction, on database: any Database) async throws -> Priced? {
        guard
            let row = try await database.sql.raw(
                """
                SELECT user_id, amount, unit FROM verification_tokens
                WHERE token_hash = \(bind: hash) AND action = \(bind: action.rawValue)
                """
            ).first()
        else { return nil }
        let amount: (value: PolicyAmount, unit: String)? =
            if let unit = try row.decode(column: "unit", as: String?.self),
                let value = try row.decode(column: "amount", as: String?.self).flatMap(PolicyAmount.init)
            {
                (value, unit)
            } else {
                nil
            }
        return Priced(owner: try row.decode(column: "user_id", as: UUID.self), amount: amount)
    }

    /// Marks the proof `hash` redeemed at `now` in one conditional update, when it is unused and unexpired,
    /// for exactly `action` and `digest` (and `user`, when given), its account is neither disabled, frozen nor
    /// deleted, the session that passed it is live, and (`heldOut`) no security hold of its owner runs.
    func use(
        _ hash: String, user: UUID?, action: VerificationAction, digest: String, heldOut: Bool, now: Double,
        on database: any Database
    ) async throws -> Used? {
        let userFilter: SQLQueryString = if let user { "AND user_id = \(bind: user)" } else { "" }
        let holdFilter: SQLQueryString =
            heldOut
            ? """
            AND NOT EXISTS (SELECT 1 FROM security_holds h
              WHERE h.user_id = verification_tokens.user_id AND h.hold_until > \(bind: now))
            """ : ""
        let rows = try await database.sql.raw(
            """
            UPDATE verification_tokens SET redeemed_at = \(bind: now)
            WHERE token_hash = \(bind: hash) AND redeemed_at IS NULL AND expires_at > \(bind: now)
              AND action = \(bind: action.rawValue) AND digest = \(bind: digest) \(userFilter)
              AND EXISTS (SELECT 1 FROM users u WHERE u.id = verification_tokens.user_id
                AND u.disabled_at IS NULL AND u.frozen_at IS NULL AND u.deleted_at IS NULL)
              AND (session_id IS NULL OR EXISTS (SELECT 1 FROM sessions s
                WHERE s.id = verification_tokens.session_id AND s.revoked_at IS NULL))
              \(holdFilter)
            RETURNING user_id, method, methods, verified_at, session_id
            """
        ).all()
        guard let row = rows.first else { return nil }
        let first = try row.decode(column: "method", as: VerificationMethodKind.self)
        let methods = try row.decode(column: "methods", as: String?.self).map(VerificationPlan.kindList) ?? []
        return Used(
            owner: try row.decode(column: "user_id", as: UUID.self), methods: methods.isEmpty ? [first] : methods,
            verifiedAt: try row.decode(column: "verified_at", as: Double.self),
            session: try row.decode(column: "session_id", as: UUID?.self))
    }

    /// The amounts (as stored, exact decimals) of `user`'s proofs of `action` in `unit` redeemed after
    /// `since`: the daily limit's rows (issue 30 §1).
    func redeemedAmounts(
        of user: UUID, action: VerificationAction, unit: String, since: Double, on database: any Database
    ) async throws -> [String] {
        try await database.sql.raw(
            """
            SELECT amount FROM verification_tokens
            WHERE user_id = \(bind: user) AND action = \(bind: action.rawValue) AND redeemed_at > \(bind: since)
              AND unit = \(bind: unit) AND amount IS NOT NULL
            """
        ).all().map { try $0.decode(column: "amount", as: String.self) }
    }
}
