import ArgumentParser
import LatchClient

/// `latch account anti-phishing remove`: the same recency rule as `set`.
struct AntiPhishingRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove the anti-phishing code (verifies when needed).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        try await context.callVerifyingWhenAsked(
            action: LatchClient.setAntiPhishingCodeAction, simulation: simulation, secrets: secrets
        ) { proof in
            try await context.client.removeAntiPhishingCode(verificationToken: proof?.token)
        }
        context.terminal.line(
            context.terminal.paint(AccountSecurityText(language: context.language).antiPhishingRemoved, .green))
    }
}
