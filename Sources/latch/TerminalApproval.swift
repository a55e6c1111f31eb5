import Foundation
import LatchClient
import LatchCore

/// The approval screen (issue 43 §3) in a terminal: runs the SDK's `ApprovalDriver`, prints each screen
/// it decides, answers the numbers from `--number` (else asks), and runs the verification page with the
/// simulated sensor of this home, as `latch verify` does. It decides nothing itself.
struct TerminalApproval: ApprovalDriverEnvironment {
    let context: CLIContext
    let answers: [SimulatedAnswer]
    /// `--number`: picked at the first choice; a second choice (the page was closed) closes the screen.
    let number: String?
    /// `--deny` / `--not-me`: the answer instead of a number.
    let preset: ApprovalInput?
    let secrets: VerificationSecrets
    private let choices = ChoiceCount()

    init(
        context: CLIContext, answers: [SimulatedAnswer], number: String?, preset: ApprovalInput? = nil,
        secrets: VerificationSecrets = VerificationSecrets(code: nil, fundPassword: nil)
    ) {
        self.context = context
        self.answers = answers
        self.number = number
        self.preset = preset
        self.secrets = secrets
    }

    var language: LatchLanguage { context.language }

    /// Runs the screen for `subject`; exits as `ApprovalEnd.failure` says.
    func run(_ subject: ApprovalSubject) async throws {
        let driver = ApprovalDriver(flow: ApprovalFlow(subject: subject, language: language), environment: self)
        let end = await driver.run()
        if let failure = end.failure { throw failure }
    }

    func load(_ subject: ApprovalSubject) async throws -> ApprovalDetails {
        switch subject {
        case .signIn(let link): .signIn(try await context.client.signInApproval(link))
        case .verification(let id): .verification(try await context.client.phoneVerification(id: id))
        }
    }

    func verifySignIn(_ verification: VerificationContext) async -> ApprovalVerificationOutcome {
        await withPage { sensor, presenter in
            await context.client.verifySignInApproval(
                verification, authenticator: sensor, keys: context.keys, presenter: presenter,
                language: context.language, passkeys: context.passkeys)
        }
    }

    func verifyOnPhone(_ details: PhoneVerificationDetails, number: String) async -> ApprovalVerificationOutcome {
        await withPage { sensor, presenter in
            await context.client.approveOnPhone(
                details, number: number, authenticator: sensor, keys: context.keys, presenter: presenter,
                language: context.language, passkeys: context.passkeys)
        }
    }

    func approveSignIn(_ link: ApprovalLink, number: String, verificationToken: String) async throws {
        try await context.client.approveSignIn(link, number: number, verificationToken: verificationToken)
    }

    func deny(_ subject: ApprovalSubject) async throws {
        switch subject {
        case .signIn(let link): try await context.client.denySignIn(link)
        case .verification(let id): try await context.client.denyPhoneVerification(id: id)
        }
    }

    func freezeAccount() async throws {
        try await context.client.freezeAccount()
    }

    func sleep(until date: Date) async throws {
        let seconds = date.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }

    // MARK: - The screen

    func present(_ screen: ApprovalScreen, respond: @escaping @Sendable (ApprovalInput) -> Void) async {
        let terminal = context.terminal
        switch screen.kind {
        case .loading, .busy:
            terminal.line(terminal.paint("… \(screen.message)", .dim))
        case .choosing:
            terminal.line(terminal.paint("【\(screen.title)】", .bold))
            terminal.line(screen.isWarning ? terminal.paint(screen.message, .yellow) : screen.message)
            for line in screen.details { terminal.line(line) }
            if let instruction = screen.instruction { terminal.line(instruction) }
            terminal.line("numbers: " + screen.numbers.joined(separator: " "))
            respond(await choice(screen))
        case .finished(let end):
            if !screen.message.isEmpty {
                terminal.line(terminal.paint(screen.message, end.failure == nil ? .green : .yellow))
            }
            terminal.line("state: \(end.stateWord)")
        }
    }

    /// The user's answer to the numbers: the preset or `--number` the first time, else typed.
    private func choice(_ screen: ApprovalScreen) async -> ApprovalInput {
        let first = choices.next() == 0
        if let preset { return first ? preset : .tappedClose }
        if let number {
            guard first else { return .tappedClose }
            context.terminal.line(context.language.pick("→ 选择 \(number)", "→ picked \(number)"))
            return .pickedNumber(number)
        }
        let question = context.language.pick(
            "输入数字（或 d 拒绝，x 不是我本人操作，c 关闭）：", "Type the number (or d to deny, x for this wasn't me, c to close): ")
        while true {
            guard let typed = await context.terminal.ask(question)?.trimmingCharacters(in: .whitespaces) else {
                return .tappedClose
            }
            switch typed.lowercased() {
            case "d", "deny": return .tappedDeny
            case "x", "not-me": return .tappedNotMe
            case "c", "close", "": return .tappedClose
            default:
                if screen.numbers.contains(typed) { return .pickedNumber(typed) }
            }
        }
    }

    /// Runs `work` with the simulated sensor of this home and the terminal's verification page, and keeps
    /// the sensor's state afterwards.
    private func withPage(
        _ work: (SimulatedAuthenticator, TerminalVerificationPresenter) async -> ApprovalVerificationOutcome
    ) async -> ApprovalVerificationOutcome {
        let page = VerificationPage()
        let state = await SimulatedSensorState.load(from: context.vault)
        let sensorAnswers = SensorAnswers(script: answers, terminal: context.terminal, text: context.text, page: page)
        let kind = state.kind
        let sensor = await state.authenticator { prompt in await sensorAnswers.step(for: prompt, kind: kind) }
        let presenter = TerminalVerificationPresenter(
            terminal: context.terminal, text: context.text, page: page, answers: sensorAnswers, secrets: secrets)
        let outcome = await work(sensor, presenter)
        try? await SimulatedSensorState.reading(sensor).save(to: context.vault)
        return outcome
    }
}

/// How many times the numbers were shown.
private final class ChoiceCount: @unchecked Sendable {
    // @unchecked Sendable: `count` is read and written only under `lock`.
    private let lock = NSLock()
    private var count = 0

    /// The count before this call.
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}
