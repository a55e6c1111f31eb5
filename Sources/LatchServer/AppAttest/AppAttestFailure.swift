/// Why latchd refuses an App Attest attestation or assertion (issue 31 §2). The raw value is the
/// `reasons` entry of the 422 answer (field `app_attest` or `app_attest_assertion`).
enum AppAttestFailure: String, Error, Sendable, Equatable, CaseIterable {
    /// Not the CBOR Apple sends, a member missing or of the wrong type, or a public key that is not P-256.
    case malformed
    /// `fmt` is not `apple-appattest`.
    case wrongFormat = "wrong_format"
    /// Step 1: the `x5c` chain does not lead to the App Attest root CA (or a certificate is out of date).
    case untrustedChain = "untrusted_chain"
    /// Steps 2–4: the credential certificate's nonce (1.2.840.113635.100.8.2) is not
    /// SHA-256(authData ‖ clientDataHash): the attestation was made for another challenge or key.
    case nonceMismatch = "nonce_mismatch"
    /// Step 5: `key_id` is not the SHA-256 of the credential certificate's public key.
    case keyIDMismatch = "key_id_mismatch"
    /// Step 6: the RP ID hash is not the SHA-256 of any app id in `LATCH_APP_ATTEST_APP_IDS`.
    case appIDMismatch = "app_id_mismatch"
    /// Step 7: an attestation's counter is not 0.
    case counterNotZero = "counter_not_zero"
    /// Step 8: the `aaguid` is not the configured environment's.
    case wrongEnvironment = "wrong_environment"
    /// Step 9: the credential id is not the key id.
    case credentialIDMismatch = "credential_id_mismatch"
    /// The App Attest key already vouched for a device key, this user's or another's, bound now or
    /// before (issue 41 §2: one App Attest key binds once).
    case keyIDUsed = "key_id_used"
    /// The challenge is unknown, expired, another user's or used.
    case challengeUnknownOrUsed = "challenge_unknown_or_used"
    /// An assertion's signature does not verify with the attested key over its nonce.
    case badSignature = "bad_signature"
    /// An assertion's counter is not greater than the last one latchd stored (a replayed assertion).
    case counterNotIncreased = "counter_not_increased"
}
