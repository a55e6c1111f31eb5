import ArgumentParser
import LatchClient

/// `latch sessions revoke ID` / `latch sessions revoke --others`: signs out one device, or every
/// other one (C8).
struct SessionsRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Sign out one device, or every other device.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The session to sign out (see `latch sessions`).")
    var id: String?

    @Flag(help: "Sign out every device but this one.")
    var others = false

    func validate() throws {
        let text = CLIText(language: global.language, server: global.serverText)
        if id == nil, !others { throw ValidationError(text.revokeNeedsTarget) }
        if id != nil, others { throw ValidationError(text.revokeTakesOneTarget) }
    }

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        if let id {
            try await context.call(context.text.connecting) { try await context.client.revokeSession(id: id) }
            context.terminal.line(context.text.sessionRevoked(id))
        } else {
            try await context.call(context.text.connecting) { try await context.client.revokeOtherSessions() }
            context.terminal.line(context.text.otherSessionsRevoked)
        }
    }
}
