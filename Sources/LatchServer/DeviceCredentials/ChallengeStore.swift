import Fluent
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
        try await challenge.create(on: database)
        return challenge
    }

    /// Marks the challenge used and returns it, if it exists, is unused and has not expired.
    func consume(_ id: UUID, now: Double, on database: any Database) async throws -> SignatureChallenge? {
        let rows = try await database.sql.raw("""
            UPDATE signature_challenges SET used_at = \(bind: now)
            WHERE id = \(bind: id) AND used_at IS NULL AND expires_at > \(bind: now)
            RETURNING id
            """).all()
        guard !rows.isEmpty else { return nil }
        return try await SignatureChallenge.find(id, on: database)
    }

    /// Consumes the challenge of a verification (its biometric offer).
    func consume(verification: UUID, now: Double, on database: any Database) async throws -> SignatureChallenge? {
        let rows = try await database.sql.raw("""
            UPDATE signature_challenges SET used_at = \(bind: now)
            WHERE verification_id = \(bind: verification) AND used_at IS NULL AND expires_at > \(bind: now)
            RETURNING id
            """).all()
        guard let row = rows.first else { return nil }
        return try await SignatureChallenge.find(try row.decode(column: "id", as: UUID.self), on: database)
    }
}
