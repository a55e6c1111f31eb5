import Foundation
import JWTKit
import LatchCore

/// Signs and verifies access tokens: ES256 with `kid`, 2 hours, audience `latch`.
///
/// Verified tokens are remembered (bounded) so a client's repeated calls cost one signature check;
/// a remembered token still needs its key to verify (a key retired by `latchd keys retire` ends its
/// tokens here as soon as the keys are read again).
final class AccessTokens: Sendable {
    static let lifetime = 7200

    let ring: SigningKeyRing
    let issuer: String
    /// Verified tokens, each until its `exp`.
    private let verified = ExpiringCache<String, Remembered>(limit: 20_000)

    /// A verified token's claims, the key that signed it, and its subject and session parsed once.
    private struct Remembered {
        let claims: AccessTokenClaims
        let kid: String
        let userID: UUID?
        let sessionID: UUID?
    }

    init(ring: SigningKeyRing, issuer: String) {
        self.ring = ring
        self.issuer = issuer
    }

    /// The signing keys as this instance last read them.
    var keys: SigningKeys { ring.current }

    /// A token for `sessionID`; with `boundTo` (a DPoP key's thumbprint) it carries `cnf.jkt`.
    func issue(userID: UUID, sessionID: UUID, boundTo key: String? = nil, now: Date) throws -> String {
        let iat = Int(now.timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: issuer, sub: UUIDText.lowercase(userID), aud: AccessTokenClaims.audience, iat: iat,
            exp: iat + Self.lifetime, jti: UUIDText.lowercase(RandomSecrets.uuid()),
            sid: UUIDText.lowercase(sessionID),
            cnf: key.map(AccessTokenClaims.Confirmation.init(jkt:)))
        return try keys.accessTokenSigner.sign(claims)
    }

    /// The claims and ids of a token this instance already verified, when it is still valid now (its
    /// key not retired, not expired); `nil` when the token is not remembered or no longer valid. No
    /// suspension and no allocation: the signed-in fast path (`RequireSignedIn.remembered`).
    func rememberedClaims(_ token: String, now: Date) -> (claims: AccessTokenClaims, userID: UUID, sessionID: UUID)? {
        guard let known = verified.value(for: token, now: now.timeIntervalSince1970), let userID = known.userID,
            let sessionID = known.sessionID,
            keys.verifies(kid: known.kid, now: now.timeIntervalSince1970), isCurrent(known.claims, now: now)
        else { return nil }
        return (known.claims, userID, sessionID)
    }

    /// The claims of a valid token: known `kid` not retired, ES256 only, signature, issuer, audience,
    /// not expired. `nil` for anything else. A `kid` unknown here makes the keys be read again first
    /// (a rotation by another instance).
    func verify(_ token: String, now: Date) async -> AccessTokenClaims? {
        let claims: AccessTokenClaims
        if let known = verified.value(for: token, now: now.timeIntervalSince1970) {
            guard keys.verifies(kid: known.kid, now: now.timeIntervalSince1970) else { return nil }
            claims = known.claims
        } else {
            guard token.utf8.count < 4096, let header = Self.header(of: token), header.alg == "ES256",
                let kid = header.kid
            else { return nil }
            var keys = self.keys
            if !keys.entries.contains(where: { $0.kid == kid }) {
                await ring.reloadForUnknownKID()
                keys = self.keys
            }
            guard keys.verifies(kid: kid, now: now.timeIntervalSince1970),
                let checked = try? await keys.collection.verify(token, as: AccessTokenClaims.self)
            else { return nil }
            claims = checked
            verified.store(
                Remembered(
                    claims: checked, kid: kid, userID: UUID(uuidString: checked.sub),
                    sessionID: UUID(uuidString: checked.sid)),
                for: token, validUntil: Double(checked.exp), now: now.timeIntervalSince1970)
        }
        return isCurrent(claims, now: now) ? claims : nil
    }

    /// Issuer, audience, not expired, not issued in the future (60 s of clock skew).
    private func isCurrent(_ claims: AccessTokenClaims, now: Date) -> Bool {
        let seconds = Int(now.timeIntervalSince1970)
        return claims.iss == issuer && claims.aud == AccessTokenClaims.audience && claims.exp > seconds
            && claims.iat <= seconds + 60
    }

    /// The `alg` and `kid` of a compact JWT's header, read without trusting anything else in it.
    private static func header(of token: String) -> KeyHeader? {
        guard let headerPart = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let bytes = Base64URL.decode(String(headerPart))
        else { return nil }
        return try? JSONDecoder().decode(KeyHeader.self, from: Data(bytes))
    }

    private struct KeyHeader: Decodable {
        let alg: String
        let kid: String?
    }
}
