import FluentKit
import Foundation
import Logging
import SQLKit

/// Apple refresh tokens whose revocation failed for a moment (Apple unreachable, 5xx, 429) when the
/// account was deleted or Apple unlinked (issue 20 §9): kept sealed, as on the identity, in
/// `apple_revocation_retries` and tried again with backoff (1 min, doubling, at most 6 h apart) until
/// Apple answers — revoked, or refused for good (the token is no longer valid) — or 20 attempts are
/// spent; then the row is deleted. A `revoke` of a token that is already gone is harmless, so a row
/// tried twice (two instances) does no harm either.
enum AppleRevocationRetries {
    static let table = "apple_revocation_retries"
    static let maximumAttempts = 20
    static let firstDelay: Double = 60
    static let longestDelay: Double = 6 * 3600

    /// Queues a retry of the sealed token (never opened here) for `clientID`.
    static func queue(sealed: String, clientID: String, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            INSERT INTO apple_revocation_retries (id, sealed_refresh_token, client_id, attempts, next_attempt_at, created_at)
            VALUES (\(bind: UUID()), \(bind: sealed), \(bind: clientID), 1, \(bind: now + firstDelay), \(bind: now))
            """
        ).run()
    }

    /// Tries every due retry once; returns how many Apple confirmed. Each row is claimed by moving its
    /// next attempt on (one conditional UPDATE), so instances running this at once try different rows.
    @discardableResult
    static func retryDue(
        endpoint: AppleTokenEndpoint, secrets: SecretBox, now: Double, on database: any Database, logger: Logger
    ) async throws -> Int {
        let due = try await database.sql.raw(
            """
            SELECT id, sealed_refresh_token, client_id, attempts FROM apple_revocation_retries
            WHERE next_attempt_at <= \(bind: now) ORDER BY next_attempt_at LIMIT 20
            """
        ).all()
        var revoked = 0
        for row in due {
            let id = try row.decode(column: "id", as: UUID.self)
            let attempts = try row.decode(column: "attempts", as: Int.self)
            let delay = min(longestDelay, firstDelay * pow(2, Double(min(attempts, 20))))
            let claimed = try await database.sql.raw(
                """
                UPDATE apple_revocation_retries SET attempts = attempts + 1, next_attempt_at = \(bind: now + delay)
                WHERE id = \(bind: id) AND next_attempt_at <= \(bind: now) RETURNING id
                """
            ).all()
            guard !claimed.isEmpty else { continue }
            let sealed = try row.decode(column: "sealed_refresh_token", as: String.self)
            let clientID = try row.decode(column: "client_id", as: String.self)
            let outcome: AppleTokenEndpoint.RevokeOutcome
            if let token = try? secrets.open(sealed) {
                outcome = await endpoint.revokeOutcome(
                    refreshToken: String(decoding: token, as: UTF8.self), clientID: clientID, now: now)
            } else {
                outcome = .refused // sealed under another LATCH_SECRET_KEY: nothing to send
            }
            switch outcome {
            case .revoked, .refused:
                if outcome == .revoked { revoked += 1 }
                try await database.sql.raw("DELETE FROM apple_revocation_retries WHERE id = \(bind: id)").run()
            case .unavailable where attempts + 1 >= maximumAttempts:
                logger.warning(
                    "an Apple authorization could not be revoked after \(maximumAttempts) attempts; given up")
                try await database.sql.raw("DELETE FROM apple_revocation_retries WHERE id = \(bind: id)").run()
            case .unavailable:
                break
            }
        }
        return revoked
    }
}

/// `apple_revocation_retries` (issue 20 §9): the sealed refresh token, its client id, attempts made
/// and the next one's time.
struct CreateAppleRevocationRetries: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AppleRevocationRetries.table)
            .id()
            .field("sealed_refresh_token", .string, .required)
            .field("client_id", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .double, .required)
            .field("created_at", .double, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AppleRevocationRetries.table).delete()
    }
}
