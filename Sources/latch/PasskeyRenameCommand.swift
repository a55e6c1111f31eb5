import ArgumentParser
import LatchClient
import LatchCore

/// `latch passkey rename ID NAME`: renames a passkey (a session older than 10 minutes verifies
/// `rename_passkey` first, as adding one would).
struct PasskeyRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a passkey.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The passkey (see `latch passkey list`).")
    var id: String

    @Argument(help: "The new name (1–64 characters).")
    var name: String

    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let renamed: PasskeyInfo
        do {
            renamed = try await Progress(terminal: context.terminal).run(context.text.connecting) {
                try await context.client.renamePasskey(id: id, name: name)
            }
        } catch PasskeyError.stepUpRequired(let action, let parameters) {
            let fundPassword = await secrets.fundPassword()
            let proof = try await StepUp(
                context: context, answers: simulation.answers, code: secrets.code, fundPassword: fundPassword
            )
            .verify(action, parameters: parameters)
            renamed = try await context.call(context.text.connecting) {
                try await context.client.renamePasskey(id: id, name: name, verificationToken: proof.token)
            }
        } catch {
            throw context.failure(for: error)
        }
        context.terminal.line(context.terminal.paint(context.text.passkeyRenamed(renamed), .green))
    }
}
