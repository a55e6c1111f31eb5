import ArgumentParser
import LatchClient

/// `latch passkey remove ID`: removes a passkey from the account (a session older than 10 minutes
/// verifies `remove_passkey` first) and forgets its key here. The account's last way in stays (409).
struct PasskeyRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a passkey from the account.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The passkey (see `latch passkey list`).")
    var id: String

    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        do {
            try await Progress(terminal: context.terminal).run(context.text.connecting) {
                try await context.client.removePasskey(id: id)
            }
        } catch PasskeyError.stepUpRequired(let action, let parameters) {
            let fundPassword = await secrets.fundPassword()
            let proof = try await StepUp(
                context: context, answers: simulation.answers, code: secrets.code, fundPassword: fundPassword
            )
            .verify(action, parameters: parameters)
            try await context.call(context.text.connecting) {
                try await context.client.removePasskey(id: id, verificationToken: proof.token)
            }
        } catch {
            throw context.failure(for: error)
        }
        // The key of a passkey made here is of no more use.
        _ = try? await context.passkeys.forget(serverID: id)
        context.terminal.line(context.terminal.paint(context.text.passkeyRemoved(id), .green))
    }
}
