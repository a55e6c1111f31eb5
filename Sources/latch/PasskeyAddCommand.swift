import ArgumentParser
import LatchClient
import LatchCore

/// `latch passkey add [--name NAME]`: creates a passkey with the software authenticator and registers
/// it. A session older than 10 minutes verifies `add_passkey` first (the verification page).
struct PasskeyAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Create a passkey on this device and add it to the account.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The name the account page shows (1–64 characters).")
    var name: String?

    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let created: PasskeyCreated
        do {
            created = try await Progress(terminal: context.terminal).run(context.text.connecting) {
                try await context.client.registerPasskey(name: name, authenticator: context.passkeys)
            }
        } catch PasskeyError.verificationRequired(let action, let parameters) {
            let fundPassword = await secrets.fundPassword()
            let proof = try await TerminalVerification(
                context: context, answers: simulation.answers, code: secrets.code, fundPassword: fundPassword
            )
            .verify(action, parameters: parameters)
            created = try await context.call(context.text.connecting) {
                try await context.client.registerPasskey(
                    name: name, authenticator: context.passkeys, verificationToken: proof.token)
            }
        } catch {
            throw context.failure(for: error)
        }
        context.terminal.line(context.terminal.paint(context.text.passkeyAdded(created), .green))
        if created.attestation == "unverified" { context.terminal.line(context.text.passkeyUnverifiedAttestation) }
    }
}
