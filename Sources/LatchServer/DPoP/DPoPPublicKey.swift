import Crypto
import Foundation
import LatchCore

/// The public key in a DPoP proof's `jwk` header: P-256 only (ES256), never with a private part.
struct DPoPPublicKey: Sendable {
    let key: P256.Signing.PublicKey
    /// The base64url coordinates as sent.
    let x: String
    let y: String

    /// Reads `jwk` (a JSON object): `kty` `EC`, `crv` `P-256`, 32-byte `x` and `y`, and no `d`.
    init(jwk: [String: Any]) throws(DPoPProofFailure) {
        guard jwk["d"] == nil, jwk["kty"] as? String == "EC", jwk["crv"] as? String == "P-256",
            let x = jwk["x"] as? String, let y = jwk["y"] as? String,
            let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y), xBytes.count == 32, yBytes.count == 32,
            let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + xBytes + yBytes)
        else { throw .badKey }
        self.key = key
        self.x = x
        self.y = y
    }

    /// The JWK SHA-256 thumbprint (RFC 7638), base64url: what `cnf.jkt` binds a token to (RFC 9449 §6.1).
    var thumbprint: String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8))))
    }
}
