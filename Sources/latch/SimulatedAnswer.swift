/// One answer of the simulated sensor, as `--simulate` lists them (`match,fail,fail`).
///
/// Each biometric prompt takes the next answer. `other-method` and `password` are the buttons a
/// person presses instead: on the verification page they are its "使用其他方式验证" and
/// "使用密码验证"; in a system prompt elsewhere they are its fallback button (LAError −3).
enum SimulatedAnswer: String, CaseIterable, Sendable {
    /// The face or finger matches.
    case match
    /// No match (LAError −1).
    case fail
    /// The user taps Cancel (−2).
    case cancel
    /// The user refuses the app's Face ID permission (−6); it stays refused in this home.
    case denyPermission = "deny-permission"
    /// The sensor cannot be used (−6, biometryNotAvailable).
    case unavailable
    /// Too many failures system-wide (−8); it stays locked out in this home.
    case lockout
    /// "使用其他方式验证" (or the prompt's fallback button).
    case otherMethod = "other-method"
    /// "使用密码验证" (or the prompt's fallback button).
    case password

    /// Parses a comma list (`no-match` is `fail`); a failure names the first word that is no answer.
    static func list(_ text: String) -> Result<[SimulatedAnswer], InvalidAnswer> {
        var answers: [SimulatedAnswer] = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !word.isEmpty {
            switch word {
            case "no-match", "nomatch": answers.append(.fail)
            default:
                guard let answer = SimulatedAnswer(rawValue: word) else { return .failure(InvalidAnswer(word: word)) }
                answers.append(answer)
            }
        }
        return .success(answers)
    }

    struct InvalidAnswer: Error {
        let word: String
    }
}
