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

    /// Signature and algorithm are checked by jwt-kit; time, issuer and audience by
    /// `AccessTokens.verify`, which knows the injected clock.
    func verify(using _: some JWTAlgorithm) async throws {}
}
