/// A way to answer a verification (A5, A11, D3, issue 13, issue 30 §2), as the API names it: the `type`
/// of an offer, `preferred`, the `method` of an attempt and of a redeemed proof. Every switch over it
/// is exhaustive, so a new method does not compile until each place handles it.
public enum VerificationMethodKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A device-key signature made after Face ID / Touch ID / Optic ID on the device (A11).
    case biometric
    /// A passkey assertion (issue 13).
    case passkey
    /// A TOTP code or a recovery code.
    case totp
    /// The fund password (D3).
    case fundPassword = "fund_password"
    /// A code mailed to the account's address for this verification (issue 30 §2), sent by
    /// `POST /v1/verifications/{id}/email-code`.
    case emailCode = "email_code"

    /// The RFC 8176 authentication method reference a passed factor of this kind answers in `amr`:
    /// `hwk` for a device key held in hardware, `pop` for a passkey (proof of possession, possibly
    /// synced), `otp` for a TOTP, recovery or emailed code, `pin` for the fund password.
    public var authenticationMethodReference: String {
        switch self {
        case .biometric: "hwk"
        case .passkey: "pop"
        case .totp, .emailCode: "otp"
        case .fundPassword: "pin"
        }
    }

    /// Throws `UnknownWireValue` for a method this version does not know.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeKnown(from: decoder)
    }
}
