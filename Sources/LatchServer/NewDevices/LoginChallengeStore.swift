import FluentKit
import Foundation
import SQLKit

/// Login challenges of unusual sign-ins (C8): 10 minutes, 5 tries, used once.
struct LoginChallengeStore: Sendable {
    /// Uses one of challenge `id`'s tries (before anything is compared) and returns the challenge with
    /// the tries left after this one; `nil` when it is unknown, used, expired or out of tries.
    func useAttempt(_ id: UUID, now: Double, on database: any Database) async throws
        -> (challenge: LoginChallenge, attemptsRemaining: Int)?
    {
        guard
            let row = try await database.sql.useAttempt(
                LoginChallenge.schema, where: "id = \(bind: id)", unused: "used_at",
                maximum: LoginChallenge.maximumAttempts,
                now: now),
            let challenge = try await LoginChallenge.find(id, on: database)
        else { return nil }
        return (challenge, LoginChallenge.maximumAttempts - (try row.decode(column: "attempts", as: Int.self)))
    }

    /// Marks challenge `id` used; `false` when another request did first (only the one that gets
    /// `true` may sign in).
    func useOnce(_ id: UUID, now: Double, on database: any Database) async throws -> Bool {
        try await database.sql.useOnce(
            LoginChallenge.schema, mark: "used_at", where: "id = \(bind: id)", now: now, live: false) != nil
    }
}
