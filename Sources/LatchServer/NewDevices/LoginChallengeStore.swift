import FluentKit
import Foundation
import SQLKit

/// Login challenges of unusual sign-ins (C8): 10 minutes, 5 tries, used once.
struct LoginChallengeStore: Sendable {
    /// `user`'s unused challenge for `deviceID` (none: a sign-in without one) that expires after
    /// `expiringAfter` and has tries left, if any.
    func pending(of user: UUID, deviceID: String?, expiringAfter: Double, on database: any Database) async throws
        -> LoginChallenge?
    {
        let pending = LoginChallenge.query(on: database).filter(\.$userID == user).filter(\.$usedAt == nil)
        if let deviceID { pending.filter(\.$deviceID == deviceID) } else { pending.filter(\.$deviceID == nil) }
        return
            try await pending
            .filter(\.$expiresAt > expiringAfter)
            .filter(\.$attempts < LoginChallenge.maximumAttempts)
            .first()
    }

    /// Adds `challenge`.
    func create(_ challenge: LoginChallenge, on database: any Database) async throws {
        try await challenge.create(on: database)
    }

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
