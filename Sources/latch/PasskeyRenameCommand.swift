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
        let renamed = try await context.callVerifyingWhenAsked(
            action: PasskeyError.renameAction, parameters: ["passkey_id": id], simulation: simulation, secrets: secrets
        ) { proof in try await context.client.renamePasskey(id: id, name: name, verificationToken: proof?.token) }
        context.terminal.line(context.terminal.paint(context.text.passkeyRenamed(renamed), .green))
    }
}
