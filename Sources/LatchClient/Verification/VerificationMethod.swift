/// One way to pass a verification (alternative mode: any ONE passes). Raw values are the API's.
public enum VerificationMethod: String, Sendable, Equatable, CaseIterable {
    /// Face ID / Touch ID, proven by a device-key signature (A11).
    case biometric
    /// 2FA: a TOTP code (or a recovery code).
    case totp
    /// The fund password.
    case fundPassword = "fund_password"
    /// A passkey (WebAuthn assertion over a challenge bound to the action, issue 13).
    case passkey
}
