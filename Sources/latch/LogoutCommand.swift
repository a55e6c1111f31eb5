import ArgumentParser
import LatchClient

/// `latch logout`: ends the session here and on the server (C9); the device key and the
/// installation id stay.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of this device.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let context = CLIContext(global)
        guard case .signedIn = await context.client.restoreSession() else {
            context.terminal.line(context.text.wasNotSignedIn)
            return
        }
        await Progress(terminal: context.terminal).run(context.text.connecting) { await context.client.signOut() }
        context.terminal.line(context.text.signedOut)
    }
}
