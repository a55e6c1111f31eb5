/// Why a WebAuthn response is refused; `rawValue` is the `reasons` entry of the error answer.
enum PasskeyCheckFailure: String, Error, Sendable {
    case malformed = "malformed"
    case wrongType = "wrong_type"
    case challengeMismatch = "challenge_mismatch"
    case originNotAllowed = "origin_not_allowed"
    case crossOrigin = "cross_origin"
    case rpIDMismatch = "rp_id_mismatch"
    case userNotPresent = "user_not_present"
    case userNotVerified = "user_not_verified"
    case noAttestedCredential = "no_attested_credential"
    case credentialIDMismatch = "credential_id_mismatch"
    case unsupportedAlgorithm = "unsupported_algorithm"
    case badAttestation = "bad_attestation"
    case badSignature = "bad_signature"
    /// The assertion's user handle is not the passkey owner's.
    case userHandleMismatch = "user_handle_mismatch"
    /// The assertion's backup-eligible flag differs from the registered one (issue 20 §7).
    case backupEligibilityMismatch = "backup_eligibility_mismatch"
    /// An attestation statement latchd cannot verify (a certificate chain, another format).
    case unverifiableAttestation = "unverifiable_attestation"
    /// An RSA key under 2048 bits or with an exponent other than 65537.
    case weakKey = "weak_key"
}
