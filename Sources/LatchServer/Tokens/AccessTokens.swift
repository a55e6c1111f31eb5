import Foundation
import JWTKit
import LatchCore
import Synchronization

/// Signs and verifies access tokens: ES256 with `kid`, 2 hours, audience `latch`.
///
/// Verified tokens are remembered (bounded) so a client's repeated calls cost one signature check.
final class AccessTokens: Sendable {
    static let lifetime = 7200

    let keys: SigningKeys
    let issuer: String
    private let verified = Mutex<[String: AccessTokenClaims]>([:])
    private static let rememberedLimit = 20_000

    init(keys: SigningKeys, issuer: String) {
        self.keys = keys
        self.issuer = issuer
    }

    func issue(userID: UUID, sessionID: UUID, now: Date) async throws -> String {
        let iat = Int(now.timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: issuer, sub: userID.uuidString.lowercased(), aud: AccessTokenClaims.audience, iat: iat,
            exp: iat + Self.lifetime, jti: UUID().uuidString.lowercased(), sid: sessionID.uuidString.lowercased())
        var header = JWTHeader()
        header.typ = "JWT"
        return try await keys.collection.sign(claims, kid: JWKIdentifier(string: keys.signingKID), header: header)
    }

    /// The claims of a valid token: known `kid`, ES256 only, signature, issuer, audience, not expired.
    /// `nil` for anything else.
    func verify(_ token: String, now: Date) async -> AccessTokenClaims? {
        let claims: AccessTokenClaims
        if let known = verified.withLock({ $0[token] }) {
            claims = known
        } else {
            guard token.utf8.count < 4096, Self.algorithm(of: token) == "ES256",
                let checked = try? await keys.collection.verify(token, as: AccessTokenClaims.self)
            else { return nil }
            claims = checked
            verified.withLock { cache in
                if cache.count >= Self.rememberedLimit { cache.removeAll(keepingCapacity: true) }
                cache[token] = checked
            }
        }
        let seconds = Int(now.timeIntervalSince1970)
        guard claims.iss == issuer, claims.aud == AccessTokenClaims.audience, claims.exp > seconds,
            claims.iat <= seconds + 60
        else { return nil }
        return claims
    }

    /// The `alg` of a compact JWT's header, read without trusting anything else in it.
    private static func algorithm(of token: String) -> String? {
        guard let headerPart = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let bytes = Base64URL.decode(String(headerPart)),
            let header = try? JSONDecoder().decode(AlgorithmHeader.self, from: Data(bytes))
        else { return nil }
        return header.alg
    }

    private struct AlgorithmHeader: Decodable { let alg: String }
}
