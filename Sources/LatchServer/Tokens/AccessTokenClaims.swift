import JWTKit

/// The claims of a Latch access token (ARCHITECTURE.md, "tokens and signatures").
/// `iat` and `exp` are whole seconds.
struct AccessTokenClaims: JWTPayload, Equatable {
    static let audience = "latch"

    var iss: String
    var sub: String
    var aud: String
    var iat: Int
    var exp: Int
    var jti: String
    var sid: String
    /// The key a DPoP-bound token is bound to (RFC 9449 §6.1: `cnf.jkt`); nil: a bearer token.
    var cnf: Confirmation?

    /// RFC 7800's confirmation claim, as RFC 9449 uses it.
    struct Confirmation: Codable, Equatable, Sendable {
        /// The JWK SHA-256 thumbprint (RFC 7638) of the key, base64url.
        var jkt: String
    }

    /// Signature and algorithm are checked by jwt-kit; time, issuer and audience by
    /// `AccessTokens.verify`, which knows the injected clock.
    func verify(using _: some JWTAlgorithm) async throws {}
}
