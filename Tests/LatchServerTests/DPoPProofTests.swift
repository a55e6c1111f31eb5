import Crypto
import Foundation
import LatchCore
import Testing

@testable import LatchServer

/// Issue 31 §1 (begun): a DPoP proof checked as RFC 9449 §4.3 lists, as a pure value. Binding tokens and
/// sessions to the key, `jti` single use and server nonces are not built yet.
@Suite("Issue 31 §1: DPoP proofs (RFC 9449 §4.3)")
struct DPoPProofTests {
    static let uri = "https://latch.example/v1/token"
    static let now: Double = 1_800_000_000

    /// A proof signed by `key`, with `header` and `claims` edits applied over a valid one.
    static func proof(
        key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), header edits: [String: Any?] = [:],
        claims claimEdits: [String: Any?] = [:], signWith signer: P256.Signing.PrivateKey? = nil
    ) throws -> String {
        let point = key.publicKey.x963Representation.dropFirst()
        var header: [String: Any] = [
            "typ": "dpop+jwt", "alg": "ES256",
            "jwk": [
                "kty": "EC", "crv": "P-256", "x": Base64URL.encode(Data(point.prefix(32))),
                "y": Base64URL.encode(Data(point.suffix(32)))
            ]
        ]
        var claims: [String: Any] = ["jti": UUID().uuidString, "htm": "POST", "htu": uri, "iat": now]
        for (name, value) in edits { header[name] = value }
        for (name, value) in claimEdits { claims[name] = value }
        let encoded = try [header, claims].map {
            Base64URL.encode(try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]))
        }
        let input = Data("\(encoded[0]).\(encoded[1])".utf8)
        let signature = try (signer ?? key).signature(for: input).rawRepresentation
        return "\(encoded[0]).\(encoded[1]).\(Base64URL.encode(signature))"
    }

    static func check(_ proof: String, method: String = "POST", uri: String = uri, accessToken: String? = nil)
        throws(DPoPProofFailure) -> DPoPProof
    {
        try DPoPProof(proof, method: method, uri: uri, now: now, accessToken: accessToken)
    }

    /// The check `proof` fails, nil when it passes.
    static func failure(_ proof: String, method: String = "POST", uri: String = uri, accessToken: String? = nil)
        -> DPoPProofFailure?
    {
        do {
            _ = try check(proof, method: method, uri: uri, accessToken: accessToken)
            return nil
        } catch {
            return error
        }
    }

    @Test("31 §1 a well-formed ES256 proof passes and names its key by the RFC 7638 thumbprint")
    func test_31_1_validProofPasses() throws {
        let key = P256.Signing.PrivateKey()
        let checked = try Self.check(try Self.proof(key: key, claims: ["jti": "j-1"]))
        #expect(checked.jti == "j-1")
        #expect(checked.issuedAt == Self.now)
        let again = try Self.check(try Self.proof(key: key))
        #expect(checked.thumbprint == again.thumbprint, "one key, one thumbprint")
        #expect(try Self.check(try Self.proof()).thumbprint != checked.thumbprint)
    }

    @Test("31 §1 the thumbprint is RFC 7638's, as RFC 9449's own example key and jkt show")
    func test_31_1_thumbprintMatchesTheRFCExample() throws {
        let key = try DPoPPublicKey(jwk: [
            "kty": "EC", "crv": "P-256", "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
            "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"
        ])
        #expect(key.thumbprint == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    @Test("31 §1 typ, alg (none and symmetric refused), jwk (public P-256 only) and the signature")
    func test_31_1_headerAndSignatureChecks() throws {
        let key = P256.Signing.PrivateKey()
        #expect(Self.failure(try Self.proof(header: ["typ": "JWT"])) == .wrongType)
        #expect(Self.failure(try Self.proof(header: ["alg": "none"])) == .unsupportedAlgorithm)
        #expect(Self.failure(try Self.proof(header: ["alg": "HS256"])) == .unsupportedAlgorithm)
        #expect(Self.failure(try Self.proof(header: ["alg": "ES384"])) == .unsupportedAlgorithm)
        #expect(Self.failure(try Self.proof(header: ["jwk": nil])) == .badKey)
        let point = key.publicKey.x963Representation.dropFirst()
        let privateJWK: [String: Any] = [
            "kty": "EC", "crv": "P-256", "x": Base64URL.encode(Data(point.prefix(32))),
            "y": Base64URL.encode(Data(point.suffix(32))), "d": Base64URL.encode(key.rawRepresentation)
        ]
        #expect(Self.failure(try Self.proof(key: key, header: ["jwk": privateJWK])) == .badKey)
        #expect(
            Self.failure(try Self.proof(header: ["jwk": ["kty": "oct", "k": "c2VjcmV0"]]))
                == .badKey)
        #expect(
            Self.failure(try Self.proof(key: key, signWith: P256.Signing.PrivateKey()))
                == .badSignature)
        let valid = try Self.proof(key: key)
        let parts = valid.split(separator: ".").map(String.init)
        let otherClaims = Base64URL.encode(
            Data(#"{"jti":"x","htm":"POST","htu":"\#(Self.uri)","iat":1800000000}"#.utf8))
        #expect(Self.failure("\(parts[0]).\(otherClaims).\(parts[2])") == .badSignature)
        for malformed in ["", "a.b", "a.b.c.d", "!!.!!.!!", "\(parts[0]).\(parts[1])."] {
            #expect(Self.failure(malformed) != nil, "\(malformed)")
        }
    }

    @Test("31 §1 claims: jti, htm, htu (scheme, host, port and path; query ignored) and iat within its window")
    func test_31_1_claimChecks() throws {
        #expect(Self.failure(try Self.proof(claims: ["jti": nil])) == .missingClaim)
        #expect(Self.failure(try Self.proof(claims: ["iat": "now"])) == .missingClaim)
        #expect(Self.failure(try Self.proof(), method: "GET") == .wrongMethod)
        #expect(Self.failure(try Self.proof(claims: ["htm": "post"])) == .wrongMethod)
        for other in [
            "https://latch.example/v1/me", "http://latch.example/v1/token", "https://evil.example/v1/token",
            "https://latch.example:8443/v1/token", "latch.example/v1/token"
        ] {
            #expect(Self.failure(try Self.proof(claims: ["htu": other])) == .wrongURI, "\(other)")
        }
        for same in [
            "https://LATCH.example/v1/token", "HTTPS://latch.example:443/v1/token",
            "https://latch.example/v1/token?x=1",
            "https://latch.example/v1/token#f"
        ] {
            #expect(throws: Never.self, "\(same)") { try Self.check(try Self.proof(claims: ["htu": same])) }
        }
        #expect(
            Self.failure(try Self.proof(claims: ["iat": Self.now - DPoPProof.maximumAge - 1]))
                == .stale)
        #expect(
            Self.failure(try Self.proof(claims: ["iat": Self.now + DPoPProof.maximumSkew + 1]))
                == .stale)
        #expect(throws: Never.self) {
            try Self.check(try Self.proof(claims: ["iat": Self.now - DPoPProof.maximumAge]))
        }
    }

    @Test("31 §1 ath: a resource request's proof carries the hash of the very access token presented")
    func test_31_1_accessTokenHash() throws {
        let token = "eyJ.access.token"
        let ath = Base64URL.encode(Data(SHA256.hash(data: Data(token.utf8))))
        #expect(throws: Never.self) {
            try Self.check(try Self.proof(claims: ["ath": ath]), accessToken: token)
        }
        #expect(Self.failure(try Self.proof(), accessToken: token) == .wrongAccessTokenHash)
        #expect(
            Self.failure(try Self.proof(claims: ["ath": ath]), accessToken: token + "x")
                == .wrongAccessTokenHash)
    }
}
