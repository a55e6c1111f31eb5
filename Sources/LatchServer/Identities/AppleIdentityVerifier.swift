import Crypto
import Foundation
import JWTKit
import LatchCore

/// Verifies a Sign in with Apple identity token (C1): RS256 by a key of Apple's key set, issuer
/// `https://appleid.apple.com`, an audience of `LATCH_APPLE_CLIENT_IDS`, not expired, and the nonce:
/// the token's `nonce` is the hex SHA-256 of the raw nonce the app sent (compared in constant time),
/// and with `requireNonce` (the default) a grant without a nonce is refused (`nonce_required`).
/// That a token is used only once is `AppleTokenUseStore`'s job (it needs the database).
struct AppleIdentityVerifier: Sendable {
    static let issuer = "https://appleid.apple.com"
    /// Tokens are small; anything longer is refused before parsing.
    static let maximumTokenLength = 8192

    let clientIDs: [String]
    let keySet: AppleKeySet
    /// `LATCH_APPLE_REQUIRE_NONCE`.
    var requireNonce = true

    /// What a valid token says about the person.
    struct VerifiedIdentity: Sendable {
        /// Apple's stable user id for this team.
        let subject: String
        /// The address Apple shares (possibly a private-relay address), normalised.
        let email: String?
        let emailVerified: Bool
        /// The token's `exp` (seconds since 1970): until then it must not be accepted again.
        let expiresAt: Double
        /// The client id (of `LATCH_APPLE_CLIENT_IDS`) the token was issued to: its authorization code
        /// is exchanged, and its refresh token revoked, under that client id.
        var audience: String = ""
    }

    /// Checks `token` at `now`; throws `IdentityFailure.rejected` naming the reason, or `.unavailable`
    /// when Apple's keys cannot be fetched.
    func verify(_ token: String, rawNonce: String?, now: Double) async throws -> VerifiedIdentity {
        if requireNonce, rawNonce == nil {
            throw IdentityFailure.rejected(.apple, field: "nonce", reason: "nonce_required")
        }
        guard token.utf8.count <= Self.maximumTokenLength else { throw Self.rejected("malformed_token") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])),
            let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes))
        else { throw Self.rejected("malformed_token") }
        guard header.alg == "RS256" else { throw Self.rejected("unsupported_algorithm") }
        guard let kid = header.kid, !kid.isEmpty, kid.utf8.count <= 128 else { throw Self.rejected("unknown_key") }

        let keys: JWTKeyCollection
        do {
            keys = try await keySet.keys(holding: kid, now: now)
        } catch .unknownKey {
            throw Self.rejected("unknown_key")
        } catch .unavailable {
            throw IdentityFailure.unavailable(.apple, reason: "keys_unavailable")
        }
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch {
            throw Self.rejected("invalid_signature")
        }

        guard claims.iss == Self.issuer else { throw Self.rejected("wrong_issuer") }
        guard let audience = claims.aud.value.first(where: { clientIDs.contains($0) }) else {
            throw Self.rejected("wrong_audience")
        }
        guard claims.exp.value.timeIntervalSince1970 > now else { throw Self.rejected("expired") }
        guard !claims.sub.isEmpty, claims.sub.utf8.count <= 255 else { throw Self.rejected("malformed_token") }
        switch (rawNonce, claims.nonce) {
        case (nil, nil):
            break
        case (let raw?, let expected?):
            let hashed = Hex.lowercase(SHA256.hash(data: Data(raw.utf8)))
            guard SecretBox.constantTimeEquals(hashed, expected.lowercased()) else {
                throw Self.rejected("nonce_mismatch")
            }
        case (nil, _?), (_?, nil):
            // A token bound to a nonce needs that nonce; a nonce the token does not carry proves nothing.
            throw Self.rejected("nonce_mismatch")
        }
        let email = claims.email.flatMap(EmailAddress.init)?.value
        return VerifiedIdentity(
            subject: claims.sub, email: email, emailVerified: email != nil && claims.emailVerified?.value == true,
            expiresAt: claims.exp.value.timeIntervalSince1970, audience: audience)
    }

    static func rejected(_ reason: String) -> IdentityFailure {
        .rejected(.apple, field: "identity_token", reason: reason)
    }

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
    }

    /// The claims Latch reads; checked against the injected clock above, not in `verify(using:)`.
    struct Claims: JWTPayload {
        let iss: String
        let aud: AudienceClaim
        let exp: ExpirationClaim
        let sub: String
        let nonce: String?
        let email: String?
        let emailVerified: BoolClaim?

        enum CodingKeys: String, CodingKey {
            case iss, aud, exp, sub, nonce, email
            case emailVerified = "email_verified"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
