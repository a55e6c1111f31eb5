import Foundation
import LatchCore
import Logging
import NIOCore
import NIOFoundationCompat

/// Apple's REST endpoints for Sign in with Apple tokens (TN3194): the app's `authorization_code` is
/// exchanged at the token endpoint for Apple's refresh token, which latchd keeps (encrypted) so that
/// deleting the account, or unlinking Apple, can revoke the app's authorization at the revoke endpoint.
/// Both calls are form-encoded POSTs authenticated by an `AppleClientSecret`.
struct AppleTokenEndpoint: Sendable {
    let teamKey: AppleTeamKey
    let tokenURL: String
    let revokeURL: String
    let http: OutboundHTTP
    let logger: Logger
    /// How long each call may take (`LatchConfig.providerTimeoutSeconds`).
    let timeout: TimeAmount

    /// What an exchanged code gave.
    struct Exchanged: Sendable {
        /// Apple's refresh token (Apple sends one for a fresh code).
        let refreshToken: String?
        /// The `sub` of the ID token Apple answered with: the person the code belongs to.
        let subject: String?
    }

    /// Exchanges `code` (issued to `clientID`). A code Apple refuses is `IdentityFailure.rejected`
    /// (`invalid_code`); Apple refusing latchd's client secret, or not answering, is `.unavailable`.
    func exchange(code: String, clientID: String, now: Double) async throws -> Exchanged {
        let clientSecret = try AppleClientSecret.make(for: clientID, key: teamKey, now: now)
        let response: OutboundHTTP.Response
        do {
            response = try await http.postForm(
                tokenURL,
                [
                    "client_id": clientID, "client_secret": clientSecret, "code": code,
                    "grant_type": "authorization_code"
                ], timeout: timeout)
        } catch {
            logger.warning("Apple token endpoint unreachable")
            throw IdentityFailure.unavailable(.apple, reason: "token_endpoint_unreachable")
        }
        let body = response.body
        guard response.status == 200 else {
            let error = (try? JSONDecoder().decode(ErrorAnswer.self, from: body))?.error
            switch error {
            case "invalid_grant":
                throw IdentityFailure.rejected(.apple, field: "authorization_code", reason: "invalid_code")
            case "invalid_client", "unauthorized_client":
                logger.error(
                    "Apple refused latchd's client secret (\(error ?? "")): check LATCH_APPLE_TEAM_ID, LATCH_APPLE_KEY_ID and the private key"
                )
                throw IdentityFailure.unavailable(.apple, reason: "client_secret_refused")
            default:
                logger.warning(
                    "Apple token endpoint answered \(response.status) \(LogSafeText.escaped(error ?? "", limit: 64))"
                )
                throw IdentityFailure.unavailable(.apple, reason: "token_endpoint_failed")
            }
        }
        guard let answer = try? JSONDecoder().decode(TokenAnswer.self, from: body) else {
            throw IdentityFailure.unavailable(.apple, reason: "token_endpoint_failed")
        }
        return Exchanged(refreshToken: answer.refreshToken, subject: answer.idToken.flatMap(Self.subject(ofJWT:)))
    }

    /// How a revoke request ended.
    enum RevokeOutcome: Sendable, Equatable {
        /// Apple confirmed it (200).
        case revoked
        /// Apple refused it for good (another 4xx: the token or client is not valid): trying again is useless.
        case refused
        /// Apple could not be asked (unreachable, 5xx, 429): worth trying again later.
        case unavailable
    }

    /// Revokes `refreshToken` (issued to `clientID`); whether Apple confirmed it. Failures are logged
    /// (status and Apple's error code only, never a token) and never thrown: a deletion goes on.
    func revoke(refreshToken: String, clientID: String, now: Double) async -> Bool {
        await revokeOutcome(refreshToken: refreshToken, clientID: clientID, now: now) == .revoked
    }

    /// Revokes `refreshToken` (issued to `clientID`) and says how it ended (see `RevokeOutcome`).
    func revokeOutcome(refreshToken: String, clientID: String, now: Double) async -> RevokeOutcome {
        do {
            let clientSecret = try AppleClientSecret.make(for: clientID, key: teamKey, now: now)
            let response = try await http.postForm(
                revokeURL,
                [
                    "client_id": clientID, "client_secret": clientSecret, "token": refreshToken,
                    "token_type_hint": "refresh_token"
                ], timeout: timeout)
            guard response.status == 200 else {
                let error = (try? JSONDecoder().decode(ErrorAnswer.self, from: response.body))?.error
                logger.warning(
                    "Apple revoke endpoint answered \(response.status) \(LogSafeText.escaped(error ?? "", limit: 64)); the Apple authorization was not revoked"
                )
                let transient = response.status >= 500 || response.status == 429
                return transient ? .unavailable : .refused
            }
            return .revoked
        } catch {
            logger.warning("Apple revoke endpoint unreachable; the Apple authorization was not revoked")
            return .unavailable
        }
    }

    /// The `sub` claim of a compact JWT, read without checking its signature: Apple's own answer over
    /// TLS, compared only with the subject of the identity token latchd already verified.
    static func subject(ofJWT token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])),
            let claims = try? JSONDecoder().decode(SubjectClaim.self, from: Data(bytes))
        else { return nil }
        return claims.sub
    }

    private struct SubjectClaim: Decodable {
        let sub: String?
    }

    private struct TokenAnswer: Decodable {
        let refreshToken: String?
        let idToken: String?

        enum CodingKeys: String, CodingKey {
            case refreshToken = "refresh_token"
            case idToken = "id_token"
        }
    }

    private struct ErrorAnswer: Decodable {
        let error: String?
    }
}
