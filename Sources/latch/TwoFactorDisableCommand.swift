import ArgumentParser
import LatchClient
import LatchCore

/// `latch 2fa disable`: needs a verification of `disable_totp` (D1), run as the verification page.
struct TwoFactorDisableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Turn off 2FA (asks for verification first).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let fundPassword = await secrets.fundPassword()
        let proof = try await TerminalVerification(
            context: context, answers: simulation.answers, code: secrets.code, fundPassword: fundPassword
        )
        .verify(VerificationAction.disableTOTP.rawValue, parameters: [:])
        try await context.call(context.text.connecting) {
            try await context.client.disableTOTP(verificationToken: proof.token)
        }
        context.terminal.line(context.terminal.paint(context.text.totpDisabled, .green))
    }
}
