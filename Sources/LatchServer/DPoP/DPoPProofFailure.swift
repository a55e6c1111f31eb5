/// Why a DPoP proof (RFC 9449 §4.3) was refused; its raw value is the reason the API names.
enum DPoPProofFailure: String, Error, Sendable, Equatable {
    /// Not a compact JWS of three base64url parts with JSON header and claims.
    case malformed = "malformed"
    /// `typ` is not `dpop+jwt`.
    case wrongType = "wrong_typ"
    /// `alg` is not ES256 (`none` and symmetric algorithms included).
    case unsupportedAlgorithm = "unsupported_alg"
    /// `jwk` is missing, not a P-256 public key, or carries a private part.
    case badKey = "bad_jwk"
    case badSignature = "bad_signature"
    /// A required claim (`jti`, `htm`, `htu`, `iat`) is missing or of the wrong type.
    case missingClaim = "missing_claim"
    /// `htm` is not the request's method.
    case wrongMethod = "wrong_htm"
    /// `htu` is not the request's URI (scheme, host, port and path).
    case wrongURI = "wrong_htu"
    /// `iat` is outside the accepted window.
    case stale = "stale_iat"
    /// `ath` is missing or is not the hash of the access token presented with it.
    case wrongAccessTokenHash = "wrong_ath"
    /// The proof's key is not the one the token or the session is bound to.
    case wrongKey = "wrong_key"
}
