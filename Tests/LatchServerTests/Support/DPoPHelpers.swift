import Crypto
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1

@testable import LatchServer

/// A client's DPoP key (RFC 9449) in tests: signs proofs for any request, with any claim or header changed.
struct TestDPoPKey: Sendable {
    let key = P256.Signing.PrivateKey()

    /// The public key as a JWK (`withPrivatePart`: also `d`, which latchd must refuse).
    func jwk(withPrivatePart: Bool = false) -> [String: Any] {
        let point = key.publicKey.x963Representation.dropFirst()
        var jwk: [String: Any] = [
            "kty": "EC", "crv": "P-256", "x": Base64URL.encode(Data(point.prefix(32))),
            "y": Base64URL.encode(Data(point.suffix(32)))
        ]
        if withPrivatePart { jwk["d"] = Base64URL.encode(key.rawRepresentation) }
        return jwk
    }

    /// The key's RFC 7638 thumbprint: what `cnf.jkt` names.
    var thumbprint: String { (try? DPoPPublicKey(jwk: jwk()).thumbprint) ?? "" }

    /// A proof of `method` on `url` at `now` (for `accessToken`, with `ath`), with `header` and `claims`
    /// edits applied over a valid one (a nil value removes the member).
    func proof(
        _ method: String, _ url: String, now: Date, accessToken: String? = nil, nonce: String? = nil,
        header edits: [String: Any?] = [:], claims claimEdits: [String: Any?] = [:]
    ) throws -> String {
        var header: [String: Any] = ["typ": "dpop+jwt", "alg": "ES256", "jwk": jwk()]
        var claims: [String: Any] = [
            "jti": UUID().uuidString, "htm": method, "htu": url, "iat": Int(now.timeIntervalSince1970)
        ]
        if let accessToken { claims["ath"] = Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8)))) }
        if let nonce { claims["nonce"] = nonce }
        for (name, value) in edits { header[name] = value }
        for (name, value) in claimEdits { claims[name] = value }
        let encoded = try [header, claims].map {
            Base64URL.encode(try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]))
        }
        let signature = try key.signature(for: Data("\(encoded[0]).\(encoded[1])".utf8)).rawRepresentation
        return "\(encoded[0]).\(encoded[1]).\(Base64URL.encode(signature))"
    }
}

extension TestServer {
    /// Signs in with a password (from the account's own device), binding the session to `key`.
    func signIn(boundTo key: TestDPoPKey, email: String = "alice@example.com") async throws -> TestResponse {
        try await send(
            .POST, "/v1/token",
            json: [
                "grant_type": "password", "email": email, "password": "Correct-Horse-9", "device": TestServer.testDevice
            ],
            headers: [("DPoP", try key.proof("POST", baseURL + "/v1/token", now: clock.now))])
    }

    /// `GET path` with a DPoP-bound `token` and a proof by `key` (or exactly the given `authorization` and proof).
    func getBound(
        _ path: String, token: String, key: TestDPoPKey, scheme: String = "DPoP", proof: String? = nil
    ) async throws -> TestResponse {
        let proof = try proof ?? key.proof("GET", baseURL + path, now: clock.now, accessToken: token)
        return try await send(.GET, path, headers: [("Authorization", "\(scheme) \(token)"), ("DPoP", proof)])
    }

    /// A refresh with a proof by `key` (nil: none).
    func refresh(_ token: String, key: TestDPoPKey?) async throws -> TestResponse {
        var headers: [(String, String)] = []
        if let key { headers.append(("DPoP", try key.proof("POST", baseURL + "/v1/token", now: clock.now))) }
        return try await send(
            .POST, "/v1/token", json: ["grant_type": "refresh_token", "refresh_token": token], headers: headers)
    }
}
