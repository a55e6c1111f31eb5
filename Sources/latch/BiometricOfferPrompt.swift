import Foundation
import LatchClient
import LatchCore

/// Seed 004 §9.2 "首次登录成功后 → 提示启用生物识别" in the terminal (issue 23 §1): after `latch login` at a
/// terminal, a home whose simulated sensor has nothing bound is offered Face ID / Touch ID sign-in, once
/// ("暂不" / "Not Now" is remembered by the SDK). Scripts (no terminal) are never asked.
struct BiometricOfferPrompt {
    let context: CLIContext

    func offer() async {
        guard context.terminal.inputIsTerminal else { return }
        let text = context.text
        let state = await SimulatedSensorState.load(from: context.vault)
        let answers = SensorAnswers(script: [], terminal: context.terminal, text: text)
        let sensorKind = state.kind
        let authenticator = await state.authenticator { prompt in await answers.step(for: prompt, kind: sensorKind) }
        guard let kind = await context.client.biometricOffer(authenticator: authenticator) else { return }
        let strings = BiometricOfferStrings(context.language)
        context.terminal.line(strings.message(kind))
        let reply = await context.terminal.ask("\(strings.title(kind)) [y/N] > ")?.trimmingCharacters(in: .whitespaces)
            .lowercased()
        guard let reply, ["y", "yes", "是", "启用"].contains(reply) else {
            await context.client.answerBiometricOffer()
            return
        }
        let reason = BiometricStrings.enableReason(with: kind, in: context.language)
        let result = try? await context.client.enableBiometrics(
            authenticator: authenticator, keys: context.keys, reason: reason)
        try? await SimulatedSensorState.reading(authenticator).save(to: context.vault)
        guard case .enabled(let binding)? = result else {
            // Not now after all (the prompt did not pass): `latch biometrics enable` can do it later.
            context.terminal.line(text.biometricsOfferLater)
            return
        }
        await context.client.answerBiometricOffer()
        context.terminal.line(context.terminal.paint(strings.enabled(binding.biometry), .green))
    }
}
