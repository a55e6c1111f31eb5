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
        try await context.callVerifyingWhenAsked(
            action: PasskeyError.removeAction, parameters: ["passkey_id": id], simulation: simulation, secrets: secrets
        ) { proof in try await context.client.removePasskey(id: id, verificationToken: proof?.token) }
        // The key of a passkey made here is of no more use.
        _ = try? await context.passkeys.forget(serverID: id)
        context.terminal.line(context.terminal.paint(context.text.passkeyRemoved(id), .green))
    }
}
