import LatchClient
import LatchCore

/// `latch login --biometric`: the SDK's biometric sign-in (C12, B6) with the simulated sensor. The
/// sign-in screen's notice is printed; its biometric option is taken again while answers are left.
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
        let outcome = try await Self.signIn(
            context: context, sensor: sensor, answers: sensorAnswers, hasStoredSession: hasSession)
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
        context: CLIContext, sensor: SimulatedAuthenticator, answers: SensorAnswers, hasStoredSession: Bool
    ) async throws -> BiometricSignIn.Outcome {
        let driver = context.client.biometricSignIn(
            authenticator: sensor, keys: context.keys, language: context.language)
        var update = await driver.start(hasStoredSession: hasStoredSession)
        var rounds = 0
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
