import Foundation
import LatchClient

/// Answers the simulated sensor's prompts, one step at a time: from the `--simulate` list while it lasts,
/// then by asking the person at the terminal `[m]atch  [n]o match  [c]ancel …`. Each step is printed.
actor SensorAnswers {
    private var script: [SimulatedAnswer]
    private let terminal: Terminal
    private let text: CLIText
    /// The verification page on screen, when the prompt runs over one: "other method" and
    /// "password" then press its buttons.
    private let page: VerificationPage?

    init(script: [SimulatedAnswer], terminal: Terminal, text: CLIText, page: VerificationPage? = nil) {
        self.script = script
        self.terminal = terminal
        self.text = text
        self.page = page
    }

    /// Whether scripted answers are left.
    var hasScript: Bool { !script.isEmpty }

    /// The next scripted answer, without taking it.
    func peek() -> SimulatedAnswer? { script.first }

    /// Takes the next scripted answer.
    func take() -> SimulatedAnswer? { script.isEmpty ? nil : script.removeFirst() }

    /// The next step of the person at `prompt`.
    func step(for prompt: SimulatedAuthenticator.Prompt, kind: BiometryKind) async -> SimulatedAuthenticator.Step {
        let label = terminal.paint(prompt.asksForPasscode ? text.simulatedPasscode : text.simulatedSensor(kind), .cyan)
        let answer: SimulatedAnswer
        if let scripted = take() {
            answer = scripted
            terminal.line("\(label) \(prompt.reason) → \(text.answerName(answer))")
        } else {
            terminal.line("\(label) \(prompt.reason)")
            answer = await (prompt.asksForPasscode ? askPasscode() : ask())
        }
        switch answer {
        case .match: return .match
        case .fail: return .noMatch
        case .cancel: return .cancel
        case .tryAgain: return .tryAgain
        case .fallback: return .otherMethod
        case .passcode: return .passcode
        case .denyPermission: return .denyPermission
        case .unavailable: return .error(code: -6)
        case .lockout: return .lockout
        case .otherMethod:
            // The page's own button; the prompt's result is then dropped by the flow.
            if let page, page.tap(.otherMethod) { return .appCancel }
            return .otherMethod
        case .password:
            if let page, page.tap(.usePassword) { return .appCancel }
            return .otherMethod
        }
    }

    private func ask() async -> SimulatedAnswer {
        while true {
            guard let line = await terminal.ask(text.sensorQuestion) else { return .cancel }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "m", "match": return .match
            case "n", "no match", "fail": return .fail
            case "c", "cancel", "": return .cancel
            case "t", "try again", "try-again": return .tryAgain
            case "f", "fallback": return .fallback
            case "o", "other", "other-method": return .otherMethod
            case "p", "password": return .password
            default: continue
            }
        }
    }

    private func askPasscode() async -> SimulatedAnswer {
        while true {
            guard let line = await terminal.ask(text.passcodeQuestion) else { return .cancel }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "p", "passcode": return .passcode
            case "c", "cancel", "": return .cancel
            default: continue
            }
        }
    }
}
