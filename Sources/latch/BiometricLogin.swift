import LatchClient
import LatchCore

/// `latch login --biometric`: the SDK's biometric sign-in (C12, B6) with the simulated sensor. The
/// sign-in screen's notice is printed; its biometric option is taken again while answers are left. After a
/// lockout the screen offers "输入设备密码解锁Face ID" / "Unlock Face ID with Passcode" as the SDK's does
/// (seed 003 §5.3.2, issue 28 §3): taken when the next `--simulate` step is `passcode`, or once at a terminal.
struct BiometricLogin {
    let context: CLIContext
    let answers: [SimulatedAnswer]

    func run() async throws {
        let text = context.text
        let state = await SimulatedSensorState.load(from: context.vault)
        let sensorAnswers = SensorAnswers(script: answers, terminal: context.terminal, text: text)
        let kind = state.kind
        let sensor = await state.authenticator { prompt in await sensorAnswers.step(for: prompt, kind: kind) }
        let hasSession: Bool
        if case .signedIn = await context.client.restoreSession() { hasSession = true } else { hasSession = false }
        let outcome: BiometricSignIn.Outcome
        do {
            outcome = try await Self.signIn(
                context: context, sensor: sensor, kind: kind, answers: sensorAnswers, hasStoredSession: hasSession)
        } catch {
            // A lockout (or failed scans) stays for the next run, however this one ended.
            try? await SimulatedSensorState.reading(sensor).save(to: context.vault)
            throw error
        }
        try? await SimulatedSensorState.reading(sensor).save(to: context.vault)
        let user = try await context.call(text.signingIn) { try await context.client.finishBiometricSignIn(outcome) }
        // Without a binding, a stored session is entered as it is (no prompt ran).
        let binding = await BiometricEnrollmentStore(vault: context.vault).binding()
        let line = binding.map { text.signedIn(user, with: $0.biometry) } ?? text.signedIn(user)
        context.terminal.line(context.terminal.paint(line, .green))
    }

    /// Runs the driver on the main actor (B7) until the app is entered or the sign-in screen rests.
    @MainActor
    private static func signIn(
        context: CLIContext, sensor: SimulatedAuthenticator, kind: BiometryKind, answers: SensorAnswers,
        hasStoredSession: Bool
    ) async throws -> BiometricSignIn.Outcome {
        let driver = context.client.biometricSignIn(
            authenticator: sensor, keys: context.keys, language: context.language)
        var update = await driver.start(hasStoredSession: hasStoredSession)
        var rounds = 0
        // Whether the person at the terminal was given the passcode prompt already (once is enough: a
        // cancelled prompt brings the locked screen back).
        var askedForPasscode = false
        while true {
            rounds += 1
            switch update {
            case .finished(let outcome):
                return outcome
            case .pending:
                // −1004: the prompt waits for the app to be active, which a terminal always is.
                guard rounds < 20 else { throw CLIFailure.failed(context.text.biometricLoginNotEnabled) }
                update = await driver.appBecameActive()
            case .showSignIn(let screen):
                if let notice = screen.notice {
                    context.terminal.line(context.terminal.paint(notice.text(in: context.language), .yellow))
                }
                if screen.offersPasscodeUnlock {
                    let button = BiometricStrings.unlockWithPasscode(kind, in: context.language)
                    context.terminal.line(context.terminal.paint("[\(button)]", .dim))
                    let scripted = await answers.peek() == .passcode
                    let atTerminal = await !answers.hasScript && context.terminal.inputIsTerminal && !askedForPasscode
                    guard scripted || atTerminal, rounds < 20 else { throw CLIFailure.failed("") }
                    // The button, as the SDK's screen has it; the passcode prompt then takes the step.
                    askedForPasscode = askedForPasscode || atTerminal
                    update = await driver.unlockWithPasscodeTapped()
                    continue
                }
                guard screen.biometricOption != nil else {
                    throw CLIFailure.failed(screen.notice == nil ? context.text.biometricLoginNotEnabled : "")
                }
                // Cancel-like endings show no notice: the person cancelled.
                guard screen.notice != nil else { throw CLIFailure.cancelled() }
                guard await answers.hasScript || context.terminal.inputIsTerminal, rounds < 20 else {
                    throw CLIFailure.failed("")
                }
                update = await driver.biometricSignInTapped()
            }
        }
    }
}
