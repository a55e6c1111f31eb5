import Crypto
import Foundation
import LatchCore
import NIOCore

/// Signs access tokens as ES256 compact JWS on the caller's thread (issue 44 §4): the protected header is
/// encoded once per key and the claims are written by `JSONBodyWriter`, so a refresh makes no hop to
/// jwt-kit's `JWTKeyCollection` actor and runs no `JSONEncoder`. jwt-kit still verifies every token
/// (`AccessTokens.verify`); `AccessTokenSignerTests` prove it reads these exactly as it reads its own.
struct AccessTokenSigner: Sendable {
    private let key: P256.Signing.PrivateKey
    /// `base64url({"alg":"ES256","kid":KID,"typ":"JWT"})` and the `.` after it.
    private let headerPart: String

    /// Signs with `key`, naming it `kid` in the header.
    init(kid: String, key: P256.Signing.PrivateKey) {
        self.key = key
        var header = JSONBodyWriter(capacity: 128, escapingSlashes: true)
        header.beginObject()
        header.field("alg", "ES256")
        header.field("kid", kid)
        header.field("typ", "JWT")
        header.endObject()
        headerPart = Base64URL.encode(header.buffer.readableBytesView) + "."
    }

    /// The signed token for `claims`: header, claims and the signature's 64 raw bytes (r ‖ s, RFC 7518 §3.4).
    func sign(_ claims: AccessTokenClaims) throws -> String {
        let signingInput = headerPart + Base64URL.encode(Self.payload(claims).readableBytesView)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The claims as JSON, escaped as jwt-kit's `JSONEncoder` escaped them (`/` as `\/`, so a token is as long
    /// as before and the wire goldens' lengths stay), in the claims' declaration order (jwt-kit's varied).
    static func payload(_ claims: AccessTokenClaims) -> ByteBuffer {
        var json = JSONBodyWriter(capacity: 320, escapingSlashes: true)
        json.beginObject()
        json.field("iss", claims.iss)
        json.field("sub", claims.sub)
        json.field("aud", claims.aud)
        json.field("iat", claims.iat)
        json.field("exp", claims.exp)
        json.field("jti", claims.jti)
        json.field("sid", claims.sid)
        if let confirmation = claims.cnf {
            json.beginObject("cnf")
            json.field("jkt", confirmation.jkt)
            json.endObject()
        }
        json.endObject()
        return json.buffer
    }
}
