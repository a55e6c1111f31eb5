import ArgumentParser
import LatchClient

/// `latch biometrics status`: whether biometric sign-in is on here, and the simulated sensor's state.
struct BiometricsStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show whether Face ID / Touch ID is on for this device.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let context = CLIContext(global)
        if let binding = await BiometricEnrollmentStore(vault: context.vault).binding() {
            context.terminal.line(context.text.statusEnabled(binding))
        } else {
            context.terminal.line(context.text.statusDisabled)
        }
        context.terminal.line(context.text.sensorLine(await SimulatedSensorState.load(from: context.vault)))
    }
}
