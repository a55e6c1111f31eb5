import Foundation
import JWTKit
import LatchCore
import Synchronization

/// Signs and verifies access tokens: ES256 with `kid`, 2 hours, audience `latch`.
///
/// Verified tokens are remembered (bounded) so a client's repeated calls cost one signature check;
/// a remembered token still needs its key to verify (a key retired by `latchd keys retire` ends its
/// tokens here as soon as the keys are read again).
final class AccessTokens: Sendable {
    static let lifetime = 7200

    let ring: SigningKeyRing
    let issuer: String
    private let verified = Mutex<[String: (claims: AccessTokenClaims, kid: String)]>([:])
    private static let rememberedLimit = 20_000

    init(ring: SigningKeyRing, issuer: String) {
        self.ring = ring
        self.issuer = issuer
    }

    /// The signing keys as this instance last read them.
    var keys: SigningKeys { ring.current }

    func issue(userID: UUID, sessionID: UUID, now: Date) async throws -> String {
        let iat = Int(now.timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: issuer, sub: userID.uuidString.lowercased(), aud: AccessTokenClaims.audience, iat: iat,
            exp: iat + Self.lifetime, jti: UUID().uuidString.lowercased(), sid: sessionID.uuidString.lowercased())
        var header = JWTHeader()
        header.typ = "JWT"
        let keys = self.keys
        return try await keys.collection.sign(claims, kid: JWKIdentifier(string: keys.signingKID), header: header)
    }

    /// The claims of a valid token: known `kid` not retired, ES256 only, signature, issuer, audience,
    /// not expired. `nil` for anything else. A `kid` unknown here makes the keys be read again first
    /// (a rotation by another instance).
    func verify(_ token: String, now: Date) async -> AccessTokenClaims? {
        let claims: AccessTokenClaims
        if let known = verified.withLock({ $0[token] }) {
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
            verified.withLock { cache in
                if cache.count >= Self.rememberedLimit { cache.removeAll(keepingCapacity: true) }
                cache[token] = (checked, kid)
            }
        }
        let seconds = Int(now.timeIntervalSince1970)
        guard claims.iss == issuer, claims.aud == AccessTokenClaims.audience, claims.exp > seconds,
            claims.iat <= seconds + 60
        else { return nil }
        return claims
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
