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
        let document: AccountExport
        do {
            document = try await Progress(terminal: context.terminal).run(context.text.connecting) {
                try await context.client.exportAccountData()
            }
        } catch let error as LatchClientError where error.code == .verificationRequired {
            let fundPassword = await secrets.fundPassword()
            let proof = try await StepUp(
                context: context, answers: simulation.answers, code: secrets.code, fundPassword: fundPassword
            )
            .verify(LatchClient.exportAccountAction, parameters: [:])
            document = try await context.call(context.text.connecting) {
                try await context.client.exportAccountData(verification: proof)
            }
        } catch {
            throw context.failure(for: error)
        }
        context.terminal.line(try JSONOutput.string(document))
    }
}
