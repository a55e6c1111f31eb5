import ArgumentParser

/// `latch passkey rename ID NAME`.
struct PasskeyRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a passkey.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The passkey (see `latch passkey list`).")
    var id: String

    @Argument(help: "The new name (1–64 characters).")
    var name: String

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let renamed = try await context.call(context.text.connecting) {
            try await context.client.renamePasskey(id: id, name: name)
        }
        context.terminal.line(context.terminal.paint(context.text.passkeyRenamed(renamed), .green))
    }
}
