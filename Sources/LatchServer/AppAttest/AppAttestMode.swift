/// `LATCH_APP_ATTEST` (issue 31 §2): whether latchd verifies App Attest on device binding.
public enum AppAttestMode: String, Sendable, CaseIterable {
    /// Nothing is verified; an `app_attest` member is ignored and the key is listed `attested: false`.
    case off
    /// Verified when sent (a bad one is refused); a key bound without it is listed `attested: false`.
    case optional
    /// No device key is bound, and no biometric attempt or device-key sign-in counts, without App Attest.
    case required
}
