import ArgumentParser

/// `latch biometrics sensor`: changes the simulated sensor of this home, as a person would in
/// Settings or at the device (another face enrolled, the passcode entered after a lockout, the
/// permission turned back on).
struct BiometricsSensorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensor", abstract: "Show or change the simulated sensor.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Change the sensor's kind.")
    var kind: SensorKind?

    @Flag(help: "Enrol another face or finger (biometric sign-in then turns itself off, B4).")
    var reenroll = false

    @Flag(help: "Unlock after a lockout (the device passcode was entered).")
    var unlock = false

    @Flag(help: "Turn the app's Face ID permission back on.")
    var grantPermission = false

    func run() async throws {
        let context = CLIContext(global)
        var state = await SimulatedSensorState.load(from: context.vault)
        if let kind { state.kind = kind.biometry }
        if reenroll { state.domainState = SimulatedSensorState.newEnrollment() }
        if unlock {
            if state.unavailable == .lockedOut { state.unavailable = nil }
            state.consecutiveFailures = 0
        }
        if grantPermission, state.unavailable == .notAvailable { state.unavailable = nil }
        if kind != nil || reenroll || unlock || grantPermission {
            do {
                try await state.save(to: context.vault)
            } catch {
                throw context.failure(for: error)
            }
        }
        context.terminal.line(context.text.sensorLine(state))
    }
}
