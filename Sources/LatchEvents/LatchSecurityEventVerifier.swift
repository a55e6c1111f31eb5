import Crypto
import Foundation

/// Verifies the SETs of a Latch Shared Signals stream (push, RFC 8935, or poll, RFC 8936) against latchd's
/// JWKS: ES256, header `typ` `secevent+jwt`, the `kid`'s P-256 key, `iss` and `aud`.
///
/// ```swift
/// let jwks = try await fetch("https://auth.example.com/.well-known/jwks.json")
/// let verifier = try LatchSecurityEventVerifier(
///     jwks: jwks, issuer: "https://auth.example.com", audience: "https://backend.example.com")
/// let set = try verifier.verify(body) // throws LatchSecurityEventError; .unknownKey: fetch the JWKS again
/// ```
public struct LatchSecurityEventVerifier: Sendable {
    private let keys: [String: P256.Signing.PublicKey]
    private let issuer: String?
    private let audience: String?

    /// A verifier for the keys of `jwks` (the body of `/.well-known/jwks.json`).
    /// - Parameters:
    ///   - issuer: the expected `iss`; nil checks none (a development receiver only).
    ///   - audience: the expected member of `aud` (your stream's audience); nil checks none.
    /// - Throws: `LatchSecurityEventError.invalidKeySet`.
    public init(jwks: Data, issuer: String?, audience: String?) throws {
        guard let set = try? JSONDecoder().decode(KeySet.self, from: jwks) else {
            throw LatchSecurityEventError.invalidKeySet
        }
        var keys: [String: P256.Signing.PublicKey] = [:]
        for key in set.keys where key.kty == "EC" && key.crv == "P-256" {
            guard let kid = key.kid, let x = key.x.flatMap(Self.base64URL), let y = key.y.flatMap(Self.base64URL),
                let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y)
            else { continue }
            keys[kid] = publicKey
        }
        self.keys = keys
        self.issuer = issuer
        self.audience = audience
    }

    /// Verifies one SET (the compact JWS a push's body or a poll's `sets` holds) and decodes it.
    /// - Throws: `LatchSecurityEventError`.
    public func verify(_ token: String) throws -> LatchSecurityEvent {
        let parts = token.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
            let signature = Self.base64URL(parts[2]),
            let header = try? JSONDecoder().decode([String: JSONValue].self, from: headerData),
            let claims = try? JSONDecoder().decode([String: JSONValue].self, from: claimsData)
        else { throw LatchSecurityEventError.malformed }
        let typ = header["typ"]?.stringValue
        guard typ == "secevent+jwt" else { throw LatchSecurityEventError.wrongType(typ) }
        let alg = header["alg"]?.stringValue
        guard alg == "ES256" else { throw LatchSecurityEventError.unsupportedAlgorithm(alg) }
        let kid = header["kid"]?.stringValue
        guard let key = kid.flatMap({ keys[$0] }) else { throw LatchSecurityEventError.unknownKey(kid) }
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw LatchSecurityEventError.badSignature }
        return try Self.event(claims, issuer: issuer, audience: audience)
    }

    /// `verify(_:)` for a push's body.
    public func verify(_ body: Data) throws -> LatchSecurityEvent {
        try verify(String(decoding: body, as: UTF8.self))
    }

    private static func event(_ claims: [String: JSONValue], issuer: String?, audience: String?) throws
        -> LatchSecurityEvent
    {
        let iss = claims["iss"]?.stringValue
        if let issuer, iss != issuer { throw LatchSecurityEventError.wrongIssuer(iss) }
        // RFC 7519 §4.1.3: one audience as a string, or several as an array.
        let aud = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.stringsValue ?? []
        if let audience, !aud.contains(audience) { throw LatchSecurityEventError.wrongAudience }
        guard let jti = claims["jti"]?.stringValue else { throw LatchSecurityEventError.missingClaim("jti") }
        guard let iat = claims["iat"]?.doubleValue else { throw LatchSecurityEventError.missingClaim("iat") }
        guard case .object(let events) = claims["events"] else { throw LatchSecurityEventError.missingClaim("events") }
        var subject: [String: JSONValue] = [:]
        if case .object(let value) = claims["sub_id"] { subject = value }
        return LatchSecurityEvent(
            id: jti, issuer: iss ?? "", audience: aud, issuedAt: Date(timeIntervalSince1970: iat),
            timeOfEvent: claims["toe"]?.doubleValue.map(Date.init(timeIntervalSince1970:)),
            transaction: claims["txn"]?.stringValue, subject: subject,
            events: events.mapValues { value in
                if case .object(let fields) = value { fields } else { [:] }
            })
    }

    private struct KeySet: Decodable {
        struct Key: Decodable {
            let kty: String?
            let crv: String?
            let kid: String?
            let x: String?
            let y: String?
        }
        let keys: [Key]
    }

    static func base64URL(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
