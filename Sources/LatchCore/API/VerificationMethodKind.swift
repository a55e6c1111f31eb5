/// A way to answer a verification (A5, A11, D3, issue 13), as the API names it: the `type`
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

    /// Throws `UnknownWireValue` for a method this version does not know.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeKnown(from: decoder)
    }
}
