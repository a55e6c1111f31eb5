import FluentKit
import Foundation
import Logging

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

    /// Queues a retry of the sealed token (never opened here) for `clientID`, first tried `firstDelay` on.
    static func queue(sealed: String, clientID: String, now: Double, on database: any Database) async throws {
        try await AppleRevocationRetryStore().queue(
            sealed: sealed, clientID: clientID, nextAttemptAt: now + firstDelay, now: now, on: database)
    }

    /// Tries every due retry once; returns how many Apple confirmed. Each row is claimed by moving its
    /// next attempt on (one conditional UPDATE), so instances running this at once try different rows.
    @discardableResult
    static func retryDue(
        endpoint: AppleTokenEndpoint, secrets: SecretBox, now: Double, on database: any Database, logger: Logger
    ) async throws -> Int {
        let store = AppleRevocationRetryStore()
        var revoked = 0
        for retry in try await store.due(now: now, on: database) {
            let delay = min(longestDelay, firstDelay * pow(2, Double(min(retry.attempts, 20))))
            guard try await store.claim(retry.id, nextAttemptAt: now + delay, now: now, on: database) else { continue }
            let outcome: AppleTokenEndpoint.RevokeOutcome
            if let token = try? secrets.open(retry.sealed) {
                outcome = await endpoint.revokeOutcome(
                    refreshToken: String(decoding: token, as: UTF8.self), clientID: retry.clientID, now: now)
            } else {
                outcome = .refused // sealed under another LATCH_SECRET_KEY: nothing to send
            }
            switch outcome {
            case .revoked, .refused:
                if outcome == .revoked { revoked += 1 }
                try await store.remove(retry.id, on: database)
            case .unavailable where retry.attempts + 1 >= maximumAttempts:
                logger.warning(
                    "an Apple authorization could not be revoked after \(maximumAttempts) attempts; given up")
                try await store.remove(retry.id, on: database)
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
