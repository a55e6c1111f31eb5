import ArgumentParser
import LatchClient

/// `latch biometrics disable`: turns biometric sign-in off here at once, and on the server when it
/// can be reached (B5).
struct BiometricsDisableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Turn off Face ID / Touch ID for this device.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let context = CLIContext(global)
        let text = context.text
        guard await BiometricEnrollmentStore(vault: context.vault).binding() != nil else {
            context.terminal.line(text.biometricsWereOff)
            return
        }
        _ = await context.client.restoreSession()
        let state = await SimulatedSensorState.load(from: context.vault)
        let authenticator = await state.authenticator { _ in .cancel }
        let removedOnServer = try await context.call(text.connecting) {
            try await context.client.disableBiometrics(authenticator: authenticator, keys: context.keys)
        }
        context.terminal.line(removedOnServer ? text.biometricsDisabled : text.biometricsDisabledLocally)
    }
}
