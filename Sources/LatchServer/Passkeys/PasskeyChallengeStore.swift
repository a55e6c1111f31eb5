import FluentKit
import Foundation
import SQLKit

/// Creates WebAuthn challenges and uses them up, each at most once, atomically across latchd
/// processes (one conditional `UPDATE … RETURNING`).
struct PasskeyChallengeStore: Sendable {
    /// A new challenge of `purpose`; `namesUser` marks a sign-in challenge whose options named an
    /// account (`user`, nil when the email has none).
    func create(
        _ purpose: PasskeyChallenge.Purpose, user: UUID? = nil, verification: UUID? = nil, namesUser: Bool = false,
        now: Double, on database: any Database
    ) async throws -> PasskeyChallenge {
        let challenge = PasskeyChallenge()
        challenge.id = UUID()
        challenge.challenge = RandomSecrets.token()
        challenge.purpose = purpose.rawValue
        challenge.userID = user
        challenge.verificationID = verification
        challenge.namesUser = namesUser ? true : nil
        challenge.expiresAt = now + PasskeyChallenge.lifetime
        try await challenge.create(on: database)
        return challenge
    }

    /// Marks challenge `id` used and returns it, if it is live, unused, of `purpose` and (when `user`
    /// is given) that user's.
    func consume(
        _ id: UUID, _ purpose: PasskeyChallenge.Purpose, user: UUID? = nil, now: Double, on database: any Database
    )
        async throws -> PasskeyChallenge?
    {
        let userFilter: SQLQueryString = if let user { "AND user_id = \(bind: user)" } else { "" }
        guard
            try await database.sql.useOnce(
                "passkey_challenges", mark: "used_at",
                where: "id = \(bind: id) AND purpose = \(bind: purpose.rawValue) \(userFilter)",
                now: now) != nil
        else { return nil }
        return try await PasskeyChallenge.find(id, on: database)
    }

    /// Marks the live challenge of `verification` used and returns it.
    func consume(verification: UUID, now: Double, on database: any Database) async throws -> PasskeyChallenge? {
        let purpose = PasskeyChallenge.Purpose.verification.rawValue
        guard
            let row = try await database.sql.useOnce(
                "passkey_challenges", mark: "used_at",
                where: "verification_id = \(bind: verification) AND purpose = \(bind: purpose)",
                now: now)
        else { return nil }
        return try await PasskeyChallenge.find(try row.decode(column: "id", as: UUID.self), on: database)
    }

    /// Deletes challenges that expired (they are useless; sign-in ones are made without a sign-in).
    func deleteExpired(now: Double, on database: any Database) async throws {
        try await database.sql.raw("DELETE FROM passkey_challenges WHERE expires_at <= \(bind: now)").run()
    }
}
