import Fluent
import Foundation
import SQLKit

/// Step-up verifications in progress (A5, D3): 5 minutes, 5 attempts, completed at most once.
struct VerificationStore: Sendable {
    /// Records verification `id` of `user` for `action` (parameters digest `digest`).
    func create(_ id: UUID, user: UUID, action: String, digest: String, now: Double, on database: any Database)
        async throws
    {
        let record = VerificationRecord()
        record.id = id
        record.userID = user
        record.action = action
        record.digest = digest
        record.attempts = 0
        record.expiresAt = now + VerificationRecord.lifetime
        try await record.create(on: database)
    }

    /// What one used attempt is about.
    struct Attempt {
        let action: String
        let digest: String
        /// Attempts left after this one.
        let attemptsRemaining: Int
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
                maximum: VerificationRecord.maximumAttempts, now: now, returning: ["action", "digest"])
        else {
            guard let record = try await VerificationRecord.find(id, on: database), record.userID == user else {
                return .failure(.unknown)
            }
            return .failure(record.completedAt != nil ? .completed : .dead)
        }
        return .success(
            Attempt(
                action: try row.decode(column: "action", as: String.self),
                digest: try row.decode(column: "digest", as: String.self),
                attemptsRemaining: VerificationRecord.maximumAttempts
                    - (try row.decode(column: "attempts", as: Int.self))))
    }

    /// Completes verification `id`; `false` when a racing attempt did first (it gets no second proof).
    func complete(_ id: UUID, now: Double, on database: any Database) async throws -> Bool {
        try await database.sql.useOnce(
            VerificationRecord.schema, mark: "completed_at", where: "id = \(bind: id)", now: now, live: false) != nil
    }
}
