import Crypto
import Foundation
import LatchEvents
import Testing

/// Issue 42 §4: SETs verified as RFC 8417 and SSF 1.0 say (ES256, typ secevent+jwt, the kid's key, iss, aud).
@Suite("LatchEvents: Shared Signals SET verification (issue 42 §4)")
struct LatchSecurityEventVerifierTests {
    static let key = P256.Signing.PrivateKey()
    static let issuer = "https://auth.example.com"
    static let audience = "https://backend.example.com"

    static func part(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    static var jwks: Data {
        let raw = key.publicKey.rawRepresentation
        let jwk: [String: String] = [
            "kty": "EC", "crv": "P-256", "kid": "k1", "alg": "ES256", "use": "sig",
            "x": part(raw.prefix(32)), "y": part(raw.suffix(32))
        ]
        return try! JSONSerialization.data(withJSONObject: ["keys": [jwk, ["kty": "RSA", "kid": "r1"]]])
    }

    static var claims: [String: Any] {
        [
            "iss": issuer, "aud": audience, "jti": "evt_1", "iat": 1_796_184_001, "toe": 1_796_184_000, "txn": "txn_1",
            "sub_id": ["format": "iss_sub", "iss": issuer, "sub": "u1"],
            "events": ["https://schemas.openid.net/secevent/risc/event-type/account-disabled": ["reason": "hijacking"]]
        ]
    }

    static func token(
        header: [String: Any] = ["alg": "ES256", "typ": "secevent+jwt", "kid": "k1"],
        claims: [String: Any] = claims, signer: P256.Signing.PrivateKey = key
    ) -> String {
        let input =
            part(try! JSONSerialization.data(withJSONObject: header)) + "."
            + part(try! JSONSerialization.data(withJSONObject: claims))
        let signature = try! signer.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + part(signature)
    }

    static func refusal(_ token: String, issuer: String? = issuer, audience: String? = audience)
        -> LatchSecurityEventError?
    {
        do {
            _ = try LatchSecurityEventVerifier(jwks: jwks, issuer: issuer, audience: audience).verify(token)
            return nil
        } catch let error as LatchSecurityEventError {
            return error
        } catch {
            Issue.record("not a LatchSecurityEventError: \(error)")
            return nil
        }
    }

    @Test("42 §4 a SET signed by the JWKS's key verifies and decodes: jti, iss, aud, iat, toe, txn, sub_id, events")
    func test_42_4_setVerifies() throws {
        let verifier = try LatchSecurityEventVerifier(jwks: Self.jwks, issuer: Self.issuer, audience: Self.audience)
        let event = try verifier.verify(Self.token())
        #expect(event.id == "evt_1" && event.issuer == Self.issuer && event.audience == [Self.audience])
        #expect(event.issuedAt == Date(timeIntervalSince1970: 1_796_184_001))
        #expect(event.timeOfEvent == Date(timeIntervalSince1970: 1_796_184_000) && event.transaction == "txn_1")
        #expect(event.userID == "u1")
        #expect(
            event.events["https://schemas.openid.net/secevent/risc/event-type/account-disabled"]?["reason"]
                == .string("hijacking"))
        var several = Self.claims
        several["aud"] = ["https://other.example.com", Self.audience]
        #expect(try verifier.verify(Data(Self.token(claims: several).utf8)).audience.count == 2)
    }

    @Test("42 §4 a SET is refused for its typ, alg, kid, signature, iss, aud or a missing claim")
    func test_42_4_setRefused() throws {
        #expect(Self.refusal(Self.token(header: ["alg": "ES256", "typ": "JWT", "kid": "k1"])) == .wrongType("JWT"))
        #expect(
            Self.refusal(Self.token(header: ["alg": "HS256", "typ": "secevent+jwt", "kid": "k1"]))
                == .unsupportedAlgorithm("HS256"))
        #expect(
            Self.refusal(Self.token(header: ["alg": "ES256", "typ": "secevent+jwt", "kid": "r1"])) == .unknownKey("r1"))
        #expect(Self.refusal(Self.token(signer: P256.Signing.PrivateKey())) == .badSignature)
        let parts = Self.token().split(separator: ".")
        var altered = Self.claims
        altered["jti"] = "evt_2"
        let swapped = "\(parts[0]).\(Self.part(try JSONSerialization.data(withJSONObject: altered))).\(parts[2])"
        #expect(Self.refusal(swapped) == .badSignature, "claims changed under the signature")
        #expect(Self.refusal("not.a.jwt") == .malformed && Self.refusal("abc") == .malformed)
        #expect(Self.refusal(Self.token(), issuer: "https://evil.example.com") == .wrongIssuer(Self.issuer))
        #expect(Self.refusal(Self.token(), audience: "https://other.example.com") == .wrongAudience)
        #expect(Self.refusal(Self.token(), issuer: nil, audience: nil) == nil, "nil checks neither")
        var noJTI = Self.claims
        noJTI["jti"] = nil
        #expect(Self.refusal(Self.token(claims: noJTI)) == .missingClaim("jti"))
        #expect(throws: LatchSecurityEventError.invalidKeySet) {
            try LatchSecurityEventVerifier(jwks: Data("[]".utf8), issuer: nil, audience: nil)
        }
    }
}
