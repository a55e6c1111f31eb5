import FluentKit
import Foundation
import LatchCore
import SQLKit

/// Step-up verifications in progress (A5, D3): 5 minutes, 5 attempts, completed at most once; under a
/// policy (issue 30) one row carries every factor of a two-factor verification.
struct VerificationStore: Sendable {
    /// Records verification `id` of `user` for `action` (parameters digest `digest`), needing `plan`.
    func create(
        _ id: UUID, user: UUID, action: VerificationAction, digest: String, plan: VerificationPlan, now: Double,
        on database: any Database
    ) async throws {
        // A direct statement on the verification's hot path (issue 29 §3: Fluent's create reflects over
        // the model's fields each time).
        try await database.sql.raw(
            """
            INSERT INTO verifications
              (id, user_id, action, digest, attempts, expires_at, required_factors, kinds, passed, amount, unit, target)
            VALUES (\(bind: id), \(bind: user), \(bind: action.rawValue), \(bind: digest), 0,
              \(bind: now + VerificationRecord.lifetime), \(bind: plan.requiredFactors),
              \(bind: plan.kinds.map(VerificationPlan.list)), '', \(bind: plan.amount?.description), \(bind: plan.unit),
              \(bind: plan.target))
            """
        ).run()
    }

    /// What one used attempt is about.
    struct Attempt {
        let action: VerificationAction
        let digest: String
        /// Attempts left after this one.
        let attemptsRemaining: Int
        /// What the verification needs, and the kinds passed so far (in order).
        let plan: VerificationPlan
        let passed: [VerificationMethodKind]
        /// The emailed code's row, once one was mailed.
        let emailCodeID: UUID?
    }

    /// Why no attempt could be used.
    enum Refusal: Error {
        /// No such verification of this user.
        case unknown
        /// Completed already.
        case completed
        /// Expired, or out of attempts.
        case dead
    }

    /// Uses one of `user`'s verification `id`'s attempts (atomically, across instances, before
    /// anything is checked).
    func useAttempt(_ id: UUID, user: UUID, now: Double, on database: any Database) async throws -> Result<
        Attempt, Refusal
    > {
        guard
            let row = try await database.sql.useAttempt(
                VerificationRecord.schema, where: "id = \(bind: id) AND user_id = \(bind: user)",
                unused: "completed_at",
                maximum: VerificationRecord.maximumAttempts, now: now,
                returning: [
                    "action", "digest", "required_factors", "kinds", "passed", "amount", "unit", "target",
                    "email_code_id"
                ])
        else {
            guard let record = try await VerificationRecord.find(id, on: database), record.userID == user else {
                return .failure(.unknown)
            }
            return .failure(record.completedAt != nil ? .completed : .dead)
        }
        let plan = VerificationPlan(
            requiredFactors: try row.decode(column: "required_factors", as: Int?.self) ?? 1,
            kinds: try row.decode(column: "kinds", as: String?.self).map(VerificationPlan.kindSet),
            amount: try row.decode(column: "amount", as: String?.self).flatMap(PolicyAmount.init),
            unit: try row.decode(column: "unit", as: String?.self),
            target: try row.decode(column: "target", as: String?.self))
        return .success(
            Attempt(
                action: VerificationAction(try row.decode(column: "action", as: String.self)),
                digest: try row.decode(column: "digest", as: String.self),
                attemptsRemaining: VerificationRecord.maximumAttempts
                    - (try row.decode(column: "attempts", as: Int.self)),
                plan: plan, passed: VerificationPlan.kindList(try row.decode(column: "passed", as: String?.self) ?? ""),
                emailCodeID: try row.decode(column: "email_code_id", as: UUID?.self)))
    }

    /// Records that `kind` passed after `passed` (compare-and-set: a racing pass of another attempt
    /// makes this one answer `false`, 409, so no pass counts twice).
    func recordPass(
        _ kind: VerificationMethodKind, after passed: [VerificationMethodKind], of id: UUID, on database: any Database
    ) async throws -> Bool {
        let before = VerificationPlan.list(passed)
        let after = VerificationPlan.list(passed + [kind])
        let rows = try await database.sql.raw(
            """
            UPDATE verifications SET passed = \(bind: after)
            WHERE id = \(bind: id) AND completed_at IS NULL AND COALESCE(passed, '') = \(bind: before)
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// The live, unfinished verification `id` of `user`: what the emailed code's mail names.
    func live(_ id: UUID, user: UUID, now: Double, on database: any Database) async throws -> VerificationRecord? {
        guard let record = try await VerificationRecord.find(id, on: database), record.userID == user,
            record.completedAt == nil, record.expiresAt > now,
            record.attempts < VerificationRecord.maximumAttempts
        else { return nil }
        return record
    }

    /// Retires the unused challenges of verification `id`'s earlier offers (before new ones are made for
    /// its next factor), so each offer signs exactly one live challenge.
    func retireChallenges(of id: UUID, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            "UPDATE signature_challenges SET used_at = \(bind: now) WHERE verification_id = \(bind: id) AND used_at IS NULL"
        ).run()
        try await database.sql.raw(
            "UPDATE passkey_challenges SET used_at = \(bind: now) WHERE verification_id = \(bind: id) AND used_at IS NULL"
        ).run()
    }

    /// Binds the emailed code `code` (its `email_codes` row) to verification `id`.
    func bindEmailCode(_ code: UUID, to id: UUID, on database: any Database) async throws {
        try await database.sql.raw("UPDATE verifications SET email_code_id = \(bind: code) WHERE id = \(bind: id)")
            .run()
    }

    /// Uses up every attempt of verification `id` (a wrong number or a denial on the phone, issue 43 §2):
    /// a later attempt answers "no attempts left".
    func exhaust(_ id: UUID, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE verifications SET attempts = \(bind: VerificationRecord.maximumAttempts)
            WHERE id = \(bind: id) AND completed_at IS NULL
            """
        ).run()
    }

    /// Completes verification `id`; `false` when a racing attempt did first (it gets no second proof).
    func complete(_ id: UUID, now: Double, on database: any Database) async throws -> Bool {
        try await database.sql.useOnce(
            VerificationRecord.schema, mark: "completed_at", where: "id = \(bind: id)", now: now, live: false) != nil
    }
}
