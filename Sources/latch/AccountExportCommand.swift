import ArgumentParser

/// `latch account export`: prints everything the server holds about the signed-in user, as JSON
/// (`GET /v1/me/export`).
struct AccountExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Print everything the server holds about the account, as JSON.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let document = try await context.call(context.text.connecting) { try await context.client.exportAccountData() }
        context.terminal.line(try JSONOutput.string(document))
    }
}
