import ArgumentParser
import LatchClient
import LatchCore

/// `latch biometrics enable`: evaluates the simulated sensor, creates the device key and binds it
/// (B5), all by the SDK.
struct BiometricsEnableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable", abstract: "Turn on Face ID / Touch ID for this device.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The simulated sensor.")
    var sensor: SensorKind = .faceID

    @Option(help: "The name the server shows for this device.")
    var deviceName: String?

    @OptionGroup var simulation: SensorOptions

    @OptionGroup var secrets: SecretOptions

    func run() async throws {
        let context = CLIContext(global)
        let text = context.text
        try await context.requireSession()
        var state = await SimulatedSensorState.load(from: context.vault)
        state.kind = sensor.biometry
        try? await state.save(to: context.vault)

        let answers = SensorAnswers(script: simulation.answers, terminal: context.terminal, text: text)
        let kind = sensor.biometry
        let authenticator = await state.authenticator { prompt in await answers.step(for: prompt, kind: kind) }
        let reason = BiometricStrings.enableReason(with: kind, in: context.language)
        let result: BiometricEnableResult
        do {
            result = try await context.client.enableBiometrics(
                authenticator: authenticator, keys: context.keys, reason: reason, deviceName: deviceName)
        } catch let error as LatchClientError where error.code == .verificationRequired {
            // The session is older than 10 minutes: binding needs a verification of `bind_device`.
            let fundPassword = await secrets.fundPassword()
            let proof = try await TerminalVerification(
                context: context, answers: [], code: secrets.code, fundPassword: fundPassword
            )
            .verify(VerificationAction.bindDevice.rawValue, parameters: [:])
            do {
                result = try await context.client.enableBiometrics(
                    authenticator: authenticator, keys: context.keys, reason: reason, deviceName: deviceName,
                    verificationToken: proof.token)
            } catch {
                throw context.failure(for: error)
            }
        } catch {
            throw context.failure(for: error)
        }
        try? await SimulatedSensorState.reading(authenticator).save(to: context.vault)

        switch result {
        case .enabled(let binding):
            context.terminal.line(context.terminal.paint(text.biometricsEnabled(binding.biometry), .green))
        case .unavailable(let reason):
            throw CLIFailure.failed(BiometricNotice.unavailable(reason, kind: kind).text(in: context.language))
        case .notVerified(let failure):
            switch failure.handling {
            case .cancelLike, .userFallback:
                throw CLIFailure.cancelled()
            case .authenticationFailed:
                throw CLIFailure.failed(BiometricNotice.notRecognized(kind).text(in: context.language))
            case .settingsLike, .lockout, .retryWhenActive, .unexpected:
                let notice = BiometricNotice(failure: failure.code, kind: kind) ?? .failed(kind)
                throw CLIFailure.failed(notice.text(in: context.language))
            }
        }
    }
}
