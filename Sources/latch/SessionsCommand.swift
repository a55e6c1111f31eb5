import ArgumentParser

/// `latch sessions`: the signed-in devices (C8), and signing them out.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "List the signed-in devices, or sign some out.",
        subcommands: [SessionsListCommand.self, SessionsRevokeCommand.self], defaultSubcommand: SessionsListCommand.self
    )
}
