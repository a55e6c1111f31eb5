import ArgumentParser
import LatchClient
import LatchCore

/// `latch account export`: prints everything the server holds about the signed-in user, as JSON
/// (`GET /v1/me/export`). More than 10 minutes after signing in the server asks for a verification
/// first: the verification page runs (action `export_account`), then the export is asked again with
/// its proof.
struct AccountExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print everything the server holds about the account, as JSON (asks to verify when needed).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let document = try await context.callVerifyingWhenAsked(
            action: LatchClient.exportAccountAction, simulation: simulation, secrets: secrets
        ) { proof in try await context.client.exportAccountData(verification: proof) }
        context.terminal.line(try JSONOutput.string(document))
    }
}
