import ArgumentParser
import LatchClient

/// `latch account anti-phishing set CODE`: 4–20 visible characters. More than 10 minutes after signing in
/// the verification page runs first (action `set_anti_phishing_code`).
struct AntiPhishingSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set the anti-phishing code (4-20 visible characters; verifies when needed).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    @Argument(help: "The code, 4-20 visible characters.")
    var code: String

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        try await context.callVerifyingWhenAsked(
            action: LatchClient.setAntiPhishingCodeAction, simulation: simulation, secrets: secrets
        ) { proof in
            try await context.client.setAntiPhishingCode(code, verificationToken: proof?.token)
        }
        context.terminal.line(
            context.terminal.paint(AccountSecurityText(language: context.language).antiPhishingSet(code), .green))
    }
}
