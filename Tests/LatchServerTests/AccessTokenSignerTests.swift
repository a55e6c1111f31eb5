import Crypto
import Foundation
import JWTKit
import LatchCore
import Testing

@testable import LatchServer

/// Issue 44 §4: access tokens are signed on the caller's thread by `AccessTokenSigner` instead of jwt-kit's
/// `JWTKeyCollection` actor. jwt-kit must read them exactly as it reads its own: same header, same claims,
/// a signature it accepts, and one it refuses when a byte of the claims changes.
@Suite("Access tokens signed without jwt-kit's actor (issue 44 §4)")
struct AccessTokenSignerTests {
    static let kid = "k-2026-12-07"

    static func claims(iss: String = "https://auth.example.com", jkt: String? = nil) -> AccessTokenClaims {
        AccessTokenClaims(
            iss: iss, sub: "3f0c8a52-4b7e-4d1c-9a55-0a6f1e2d3c4b", aud: AccessTokenClaims.audience,
            iat: 1_796_000_000, exp: 1_796_007_200, jti: "9b1f0e3a-7c2d-4e5f-8a6b-1c2d3e4f5a6b",
            sid: "c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f", cnf: jkt.map(AccessTokenClaims.Confirmation.init(jkt:)))
    }

    static func collection(_ key: P256.Signing.PrivateKey) async throws -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: JWKIdentifier(string: kid))
        return keys
    }

    static func json(_ part: Substring) throws -> [String: Any] {
        let bytes = try #require(Base64URL.decode(String(part)))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static let variants = [
        claims(), claims(jkt: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"),
        claims(iss: "https://auth.example.com/\"quoted\"\\slash\ttab\u{1}ctl/é")
    ]

    @Test(
        "44 §4 jwt-kit verifies the signer's tokens and reads the same claims, with and without cnf, and with an issuer that needs escaping",
        arguments: variants)
    func test_44_4_jwtKitReadsTheSignersTokens(claims: AccessTokenClaims) async throws {
        let key = P256.Signing.PrivateKey()
        let token = try AccessTokenSigner(kid: Self.kid, key: key).sign(claims)

        let verified = try await Self.collection(key).verify(token, as: AccessTokenClaims.self)

        #expect(verified == claims)
    }

    @Test(
        "44 §4 header and claims decode to what jwt-kit's own signing writes, the claims escaped alike (as long: the wire goldens' lengths stay); the signature is r ‖ s, 64 bytes",
        arguments: variants)
    func test_44_4_sameHeaderAndClaimsAsJWTKit(claims: AccessTokenClaims) async throws {
        let key = P256.Signing.PrivateKey()
        var header = JWTHeader()
        header.typ = "JWT"
        let theirs = try await Self.collection(key).sign(claims, kid: JWKIdentifier(string: Self.kid), header: header)
            .split(separator: ".")
        let ours = try AccessTokenSigner(kid: Self.kid, key: key).sign(claims).split(separator: ".")

        #expect(ours.count == 3 && theirs.count == 3)
        #expect(NSDictionary(dictionary: try Self.json(ours[0])) == NSDictionary(dictionary: try Self.json(theirs[0])))
        #expect(try Self.json(ours[0]).keys.sorted() == ["alg", "kid", "typ"])
        // jwt-kit's encoder writes the keys in no fixed order, so the bytes are compared by their length (the
        // same escaping: `/` as `\/`, the wire goldens' Content-Length) and by what they decode to.
        #expect(ours[1].count == theirs[1].count)
        #expect(NSDictionary(dictionary: try Self.json(ours[1])) == NSDictionary(dictionary: try Self.json(theirs[1])))
        #expect(Base64URL.decode(String(ours[2]))?.count == 64)
    }

    @Test("44 §4 a token whose claims changed by one byte, or signed by another key, is refused by jwt-kit")
    func test_44_4_alteredTokensAreRefused() async throws {
        let key = P256.Signing.PrivateKey()
        let keys = try await Self.collection(key)
        let token = try AccessTokenSigner(kid: Self.kid, key: key).sign(Self.claims())
        let parts = token.split(separator: ".").map(String.init)
        var payload = try #require(Base64URL.decode(parts[1]))
        payload[payload.count - 2] ^= 0x01
        let altered = [parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")
        let stranger = try AccessTokenSigner(kid: Self.kid, key: P256.Signing.PrivateKey()).sign(Self.claims())

        await #expect(throws: (any Error).self) { try await keys.verify(altered, as: AccessTokenClaims.self) }
        await #expect(throws: (any Error).self) { try await keys.verify(stranger, as: AccessTokenClaims.self) }
    }
}
