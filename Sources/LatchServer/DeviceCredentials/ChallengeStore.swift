import FluentKit
import Foundation
import SQLKit

/// Signature challenges: 256 random bits, 120 s, used at most once (atomically).
struct ChallengeStore: Sendable {
    func create(credential: UUID? = nil, verification: UUID? = nil, now: Double, on database: any Database) async throws
        -> SignatureChallenge
    {
        let challenge = SignatureChallenge()
        challenge.id = UUID()
        challenge.challenge = RandomSecrets.token()
        challenge.credentialID = credential
        challenge.verificationID = verification
        challenge.expiresAt = now + SignatureChallenge.lifetime
        // A direct statement: a verification's biometric offer and every sign-in by a device key make one
        // (issue 29 §3: Fluent's create reflects over the model's fields each time).
        try await database.sql.raw(
            """
            INSERT INTO signature_challenges (id, challenge, credential_id, verification_id, expires_at)
            VALUES (\(bind: challenge.id), \(bind: challenge.challenge), \(bind: credential), \(bind: verification),
              \(bind: challenge.expiresAt))
            """
        ).run()
        return challenge
    }

    /// At most this many unused, unexpired login challenges per device key: the challenge endpoint
    /// needs no sign-in, so without a cap anyone knowing a credential id could add rows without end.
    static let liveLoginChallengeLimit = 5

    /// Seconds until a login challenge may be issued for `credential`: 0 when fewer than
    /// `liveLoginChallengeLimit` are live, else until the oldest live one expires. Expired challenges
    /// of the key are deleted on the way. (Concurrent calls may pass the check together: the cap can be
    /// exceeded by the number of requests in flight, never without bound.)
    func loginChallengeWait(credential: UUID, now: Double, on database: any Database) async throws -> Int {
        try await database.sql.raw(
            """
            DELETE FROM signature_challenges WHERE credential_id = \(bind: credential) AND expires_at <= \(bind: now)
            """
        ).run()
        let rows = try await database.sql.raw(
            """
            SELECT expires_at FROM signature_challenges
            WHERE credential_id = \(bind: credential) AND used_at IS NULL AND expires_at > \(bind: now)
            ORDER BY expires_at
            """
        ).all()
        guard rows.count >= Self.liveLoginChallengeLimit else { return 0 }
        let oldest = try rows[rows.count - Self.liveLoginChallengeLimit].decode(column: "expires_at", as: Double.self)
        return max(1, Int((oldest - now).rounded(.up)))
    }

    /// Marks the challenge used and returns it, if it exists, is unused and has not expired.
    func consume(_ id: UUID, now: Double, on database: any Database) async throws -> SignatureChallenge? {
        guard
            try await database.sql.useOnce("signature_challenges", mark: "used_at", where: "id = \(bind: id)", now: now)
                != nil
        else { return nil }
        return try await SignatureChallenge.find(id, on: database)
    }

    /// The unused, unexpired challenge of a verification's biometric offer, if any (read only).
    func live(verification: UUID, now: Double, on database: any Database) async throws -> SignatureChallenge? {
        guard
            let row = try await database.sql.raw(
                """
                SELECT id FROM signature_challenges
                WHERE verification_id = \(bind: verification) AND used_at IS NULL AND expires_at > \(bind: now)
                ORDER BY expires_at DESC LIMIT 1
                """
            ).first()
        else { return nil }
        return try await SignatureChallenge.find(try row.decode(column: "id", as: UUID.self), on: database)
    }

    /// Consumes the challenge of a verification (its biometric offer).
    func consume(verification: UUID, now: Double, on database: any Database) async throws -> SignatureChallenge? {
        guard
            let row = try await database.sql.useOnce(
                "signature_challenges", mark: "used_at", where: "verification_id = \(bind: verification)", now: now)
        else { return nil }
        return try await SignatureChallenge.find(try row.decode(column: "id", as: UUID.self), on: database)
    }
}
