import FluentKit
import Foundation
import LatchCore
import Logging

/// Apple refresh tokens at rest: kept sealed (AES-GCM with `LATCH_SECRET_KEY`, as TOTP secrets) on
/// the account's Apple identity, and revoked at Apple when the account is deleted or Apple unlinked.
enum AppleRefreshTokens {
    /// Keeps the refresh token an `authorization_code` gave (if any) on the Apple identity of `proven`.
    static func keep(_ proven: ProvenIdentity, secrets: SecretBox, identities: IdentityStore, on database: any Database)
        async throws
    {
        guard proven.provider == .apple, let token = proven.appleRefreshToken, let clientID = proven.appleClientID
        else { return }
        let sealed = try secrets.seal(Data(token.utf8))
        try await identities.keepAppleRefreshToken(
            sealed: sealed, clientID: clientID, ofApple: proven.subject, on: database)
    }

    /// Revokes the sealed refresh token of a removed Apple identity at Apple: `revoked` when Apple
    /// confirmed it, `notPossible` when no token is held, the team key is not configured or Apple failed.
    /// When Apple could not be asked (unreachable, 5xx, 429) the sealed token is queued in
    /// `AppleRevocationRetries` on `database` and tried again later (issue 20 §9); the answer is still
    /// `notPossible`, as nothing is revoked yet.
    static func revoke(
        sealed: String?, clientID: String?, endpoint: AppleTokenEndpoint?, secrets: SecretBox, now: Double,
        retryingOn database: any Database, logger: Logger
    ) async -> AppleRevocation {
        guard let sealed, let clientID, let endpoint, let token = try? secrets.open(sealed) else { return .notPossible }
        switch await endpoint.revokeOutcome(
            refreshToken: String(decoding: token, as: UTF8.self), clientID: clientID, now: now)
        {
        case .revoked:
            return .revoked
        case .refused:
            return .notPossible
        case .unavailable:
            do {
                try await AppleRevocationRetries.queue(sealed: sealed, clientID: clientID, now: now, on: database)
            } catch {
                logger.warning("an Apple revocation that failed could not be queued for a retry")
            }
            return .notPossible
        }
    }
}
