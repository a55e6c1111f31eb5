/// A kind of factor a verification policy counts (issue 30 §1). Two factors must be two different kinds;
/// a recovery code counts as `totp`.
enum PolicyFactorKind: String, CaseIterable, Hashable, Sendable, Comparable {
    case biometric
    case passkey
    case totp
    case fundPassword = "fund_password"
    case emailCode = "email_code"

    static func < (lhs: PolicyFactorKind, rhs: PolicyFactorKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
