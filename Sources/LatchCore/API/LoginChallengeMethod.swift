/// How an unusual sign-in's login challenge (C8) is answered, as the API names it (`method` of a
/// 403 VERIFICATION_REQUIRED answer).
public enum LoginChallengeMethod: String, Sendable, Hashable, CaseIterable, Codable {
    /// A 6-digit code mailed to the account's address.
    case email
    /// A code from the authenticator app (2FA is on), or a recovery code.
    case totp
}
