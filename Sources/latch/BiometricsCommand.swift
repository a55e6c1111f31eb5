import ArgumentParser

/// `latch biometrics`: Face ID / Touch ID sign-in and verification on this device (B4, B5), with the
/// simulated sensor.
struct BiometricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "biometrics",
        abstract: "Turn Face ID / Touch ID sign-in and verification on or off (simulated sensor).",
        subcommands: [
            BiometricsEnableCommand.self, BiometricsDisableCommand.self, BiometricsStatusCommand.self,
            BiometricsSensorCommand.self
        ])
}
