import Foundation

/// One step of the simulated sensor, as `--simulate` lists them (`fail,cancel,match`): what the person
/// does while a system prompt is up — a scan or touch that matches or fails, a button of the prompt — and
/// the sensor derives the `LAError` a real device returns (`SimulatedAuthenticator`): Face ID scans
/// again by itself and then waits on "Try Face ID Again", Cancel and the fallback button; Touch ID
/// reports −1 after three failed touches; both lock out (−8) on the fifth consecutive failure, counted
/// across prompts and runs, until `passcode`.
///
/// `other-method` and `password` are the buttons a person presses instead: on the verification page
/// they are its "使用其他方式验证" / "Use Another Method" and "使用密码验证" / "Use Password"; in a system
/// prompt elsewhere they are its fallback button (LAError −3), like `fallback`.
enum SimulatedAnswer: String, CaseIterable, Sendable {
    /// The face or finger matches.
    case match
    /// A scan or touch that does not match (Touch ID: −1 after the third in a prompt).
    case fail
    /// The prompt's Cancel (−2; after a failed scan the page counts it as a failed attempt).
    case cancel
    /// Face ID's "Try Face ID Again" after failed scans.
    case tryAgain = "try-again"
    /// The prompt's fallback button (−3).
    case fallback
    /// The device passcode, entered in the passcode prompt after a lockout: biometry is unlocked.
    case passcode
    /// The user refuses the app's Face ID permission (−6); it stays refused in this home.
    case denyPermission = "deny-permission"
    /// The sensor cannot be used (−6, biometryNotAvailable).
    case unavailable
    /// Locked out at once, as after failures elsewhere (−8); it stays locked out in this home until
    /// `passcode` (or `latch biometrics sensor --unlock`).
    case lockout
    /// "使用其他方式验证" / "Use Another Method" (or the prompt's fallback button).
    case otherMethod = "other-method"
    /// "使用密码验证" / "Use Password" (or the prompt's fallback button).
    case password

    /// Parses a comma list (`no-match` is `fail`); a failure names the first word that is no answer.
    static func list(_ text: String) -> Result<[SimulatedAnswer], InvalidAnswer> {
        var answers: [SimulatedAnswer] = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() })
        where !word.isEmpty {
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
