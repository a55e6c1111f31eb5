import Crypto
import Foundation
import Synchronization

/// latchd's access-token claims (Sources/LatchServer/Tokens/AccessTokenClaims.swift).
struct AccessTokenClaims: Codable, Sendable {
    static let audience = "latch"

    var iss: String
    var sub: String
    var aud: String
    var iat: Int
    var exp: Int
    var jti: String
    var sid: String
}

/// latchd's `AccessTokens` on swift-crypto: ES256 with `kid`, 2 hours, audience `latch`, and the same
/// verified-token cache (a Mutex'd dictionary token → claims and kid, at most 20,000, emptied when full).
/// A hit still checks that its key verifies; a miss checks the header (alg ES256, a known kid), the
/// P-256 signature and decodes the claims; issuer, audience, expiry and iat are checked on every call.
/// One key, made at start (latchd reads its ring from the database; none is ever retired here).
final class AccessTokens: Sendable {
    static let lifetime = 7200
    private static let rememberedLimit = 20_000

    let issuer: String
    let kid: String
    private let privateKey: P256.Signing.PrivateKey
    private let publicKey: P256.Signing.PublicKey
    private let verified = Mutex<[String: (claims: AccessTokenClaims, kid: String)]>([:])

    init(issuer: String) {
        self.issuer = issuer
        self.kid = "hb-" + String(UUID().uuidString.lowercased().prefix(8))
        self.privateKey = P256.Signing.PrivateKey()
        self.publicKey = privateKey.publicKey
    }

    /// A token as latchd issues one: header `{"alg":"ES256","kid":…,"typ":"JWT"}`, ids lower-case.
    func issue(userID: String, sessionID: String, now: Date) throws -> String {
        let iat = Int(now.timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: issuer, sub: userID, aud: AccessTokenClaims.audience, iat: iat, exp: iat + Self.lifetime,
            jti: UUID().uuidString.lowercased(), sid: sessionID)
        let header = Data(#"{"alg":"ES256","kid":"\#(kid)","typ":"JWT"}"#.utf8)
        let payload = try JSONEncoder().encode(claims)
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try privateKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The claims of a valid token, nil for anything else (latchd's `AccessTokens.verify`).
    func verify(_ token: String, now: Date) -> AccessTokenClaims? {
        let claims: AccessTokenClaims
        if let known = verified.withLock({ $0[token] }) {
            guard known.kid == kid else { return nil }
            claims = known.claims
        } else {
            guard token.utf8.count < 4096, let checked = check(token) else { return nil }
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

    /// Header (read without trusting the rest), signature, then the claims.
    private func check(_ token: String) -> AccessTokenClaims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let header = try? JSONDecoder().decode(KeyHeader.self, from: headerBytes),
            header.alg == "ES256", header.kid == kid,
            let signatureBytes = Base64URL.decode(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: Data(token[..<parts[1].endIndex].utf8)),
            let payload = Base64URL.decode(parts[1])
        else { return nil }
        return try? JSONDecoder().decode(AccessTokenClaims.self, from: payload)
    }

    private struct KeyHeader: Decodable {
        let alg: String
        let kid: String?
    }
}

/// Base64url without padding (RFC 7515 §2).
enum Base64URL {
    static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    static func decode(_ part: Substring) -> Data? {
        var text = String(part).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }
}
