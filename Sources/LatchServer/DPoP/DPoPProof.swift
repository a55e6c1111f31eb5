import Crypto
import Foundation
import LatchCore

/// A DPoP proof (RFC 9449) checked as §4.3 lists, without HTTP and without state: the caller passes the
/// request's method and URI, the time, and the access token when one is presented with it; single use of
/// `jti` and server nonces are the caller's (they need shared state).
struct DPoPProof: Sendable, Equatable {
    /// The proof's key, as its thumbprint (RFC 7638): what a token and a session are bound to.
    let thumbprint: String
    let jti: String
    let issuedAt: Double
    /// The `nonce` claim, when the client sent one.
    let nonce: String?

    /// How far in the past `iat` may be (seconds): a proof is made for one request, just before it.
    static let maximumAge: Double = 300
    /// How far in the future `iat` may be (the client's clock running ahead).
    static let maximumSkew: Double = 60

    /// Checks `proof` (the `DPoP` header) for a request of `method` to `uri` at `now`; with
    /// `accessToken`, also `ath` (a resource request). Throws the first check that fails.
    init(_ proof: String, method: String, uri: String, now: Double, accessToken: String? = nil)
        throws(DPoPProofFailure)
    {
        try self.init(proof, method: method, uris: [uri], now: now, accessToken: accessToken)
    }

    /// Checks `proof` for a request of `method` that `htu` may name as any of `uris` (one per public
    /// origin of latchd), at `now`; with `accessToken`, also `ath`. Throws the first check that fails.
    init(_ proof: String, method: String, uris: [String], now: Double, accessToken: String? = nil)
        throws(DPoPProofFailure)
    {
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard proof.utf8.count <= 8192, parts.count == 3,
            let headerBytes = Base64URL.decode(String(parts[0])), let claimsBytes = Base64URL.decode(String(parts[1])),
            let signatureBytes = Base64URL.decode(String(parts[2])),
            // A header or claim named twice reads differently to different JOSE libraries (issue 41 §3).
            StrictJSONBody.refusal(of: headerBytes) == nil, StrictJSONBody.refusal(of: claimsBytes) == nil,
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: Data(claimsBytes))) as? [String: Any]
        else { throw .malformed }
        guard header["typ"] as? String == "dpop+jwt" else { throw .wrongType }
        guard header["alg"] as? String == "ES256" else { throw .unsupportedAlgorithm }
        guard let jwk = header["jwk"] as? [String: Any] else { throw .badKey }
        let key = try DPoPPublicKey(jwk: jwk)
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.key.isValidSignature(signature, for: signingInput)
        else { throw .badSignature }
        guard let jti = claims["jti"] as? String, (1...256).contains(jti.utf8.count),
            let htm = claims["htm"] as? String, let htu = claims["htu"] as? String,
            let iat = (claims["iat"] as? NSNumber)?.doubleValue
        else { throw .missingClaim }
        guard htm == method else { throw .wrongMethod }
        guard uris.contains(where: { Self.sameURI(htu, $0) }) else { throw .wrongURI }
        guard iat >= now - Self.maximumAge, iat <= now + Self.maximumSkew else { throw .stale }
        if let accessToken {
            let expected = Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))))
            guard let ath = claims["ath"] as? String, SecretBox.constantTimeEquals(ath, expected) else {
                throw .wrongAccessTokenHash
            }
        }
        self.thumbprint = key.thumbprint
        self.jti = jti
        self.issuedAt = iat
        self.nonce = claims["nonce"] as? String
    }

    /// Whether `htu` names `uri` (RFC 9449 §4.3 step 9): scheme and host case-insensitively, the port with
    /// its scheme's default, and the path; query and fragment are ignored.
    static func sameURI(_ htu: String, _ uri: String) -> Bool {
        guard let claimed = URLComponents(string: htu), let actual = URLComponents(string: uri),
            let claimedScheme = claimed.scheme?.lowercased(), let actualScheme = actual.scheme?.lowercased(),
            ["http", "https"].contains(claimedScheme), let claimedHost = claimed.host?.lowercased(),
            let actualHost = actual.host?.lowercased()
        else { return false }
        func port(_ components: URLComponents, _ scheme: String) -> Int {
            components.port ?? (scheme == "https" ? 443 : 80)
        }
        func path(_ components: URLComponents) -> String { components.path.isEmpty ? "/" : components.path }
        return claimedScheme == actualScheme && claimedHost == actualHost
            && port(claimed, claimedScheme) == port(actual, actualScheme) && path(claimed) == path(actual)
    }
}
