/// The fund password rule of D2: exactly six ASCII digits, not all the same (111111) and not a
/// straight run (123456, 654321). That it differs from the login password is checked by the server.
///
///     FundPasswordPolicy.violations(of: "123456") // [.straightRun]
public enum FundPasswordPolicy {
    /// One broken rule.
    public enum Violation: String, Sendable, Codable, CaseIterable {
        case notSixDigits = "not_six_digits"
        case allSame = "all_same"
        case straightRun = "straight_run"
        case sameAsLoginPassword = "same_as_login_password"
    }

    /// The rules `candidate` breaks (empty when acceptable).
    public static func violations(of candidate: String) -> [Violation] {
        let digits = candidate.unicodeScalars.compactMap { scalar -> Int? in
            guard scalar.isASCII, let value = Int(String(scalar)), (0...9).contains(value) else { return nil }
            return value
        }
        guard digits.count == 6, candidate.unicodeScalars.count == 6 else { return [.notSixDigits] }
        if Set(digits).count == 1 { return [.allSame] }
        let steps = zip(digits, digits.dropFirst()).map { $1 - $0 }
        if steps.allSatisfy({ $0 == 1 }) || steps.allSatisfy({ $0 == -1 }) { return [.straightRun] }
        return []
    }
}
