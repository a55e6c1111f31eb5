/// Why `LatchSecurityEventVerifier` refused a SET. Answer a push with 400 (RFC 8935 §2.3) and act on nothing.
public enum LatchSecurityEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JWKS is not a JSON Web Key Set.
    case invalidKeySet
    /// Not a compact JWS of three base64url parts with JSON header and claims.
    case malformed
    /// The header's `typ` is not `secevent+jwt`.
    case wrongType(String?)
    /// The header's `alg` is not `ES256`.
    case unsupportedAlgorithm(String?)
    /// No P-256 key in the JWKS has the header's `kid` (fetch the JWKS again: latchd rotated its key).
    case unknownKey(String?)
    /// The signature is not this token's by that key.
    case badSignature
    /// `iss` is not the expected issuer.
    case wrongIssuer(String?)
    /// `aud` does not hold the expected audience.
    case wrongAudience
    /// A claim every Latch SET has (`jti`, `iat`, `events`) is missing or of the wrong type.
    case missingClaim(String)

    /// A stable code: `invalid_key_set`, `malformed`, `wrong_type`, `unsupported_algorithm`, `unknown_key`,
    /// `bad_signature`, `wrong_issuer`, `wrong_audience`, `missing_claim`.
    public var code: String {
        switch self {
        case .invalidKeySet: "invalid_key_set"
        case .malformed: "malformed"
        case .wrongType: "wrong_type"
        case .unsupportedAlgorithm: "unsupported_algorithm"
        case .unknownKey: "unknown_key"
        case .badSignature: "bad_signature"
        case .wrongIssuer: "wrong_issuer"
        case .wrongAudience: "wrong_audience"
        case .missingClaim: "missing_claim"
        }
    }

    /// What went wrong, for a person.
    public var reason: String {
        switch self {
        case .invalidKeySet: "the JWKS is not a JSON Web Key Set"
        case .malformed: "not a compact JWS with JSON header and claims"
        case .wrongType(let typ): "typ is \(typ ?? "missing"), not secevent+jwt"
        case .unsupportedAlgorithm(let alg): "alg is \(alg ?? "missing"), not ES256"
        case .unknownKey(let kid): "no P-256 key in the JWKS has kid \(kid ?? "(none)")"
        case .badSignature: "the signature does not verify"
        case .wrongIssuer(let iss): "iss is \(iss ?? "missing")"
        case .wrongAudience: "aud does not hold the expected audience"
        case .missingClaim(let name): "the \(name) claim is missing"
        }
    }

    public var description: String { "\(code): \(reason)" }
}
