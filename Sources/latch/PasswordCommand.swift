import ArgumentParser

/// `latch password`: the forgotten-password reset by emailed code.
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password", abstract: "Reset a forgotten password with a code sent by email.",
        subcommands: [PasswordResetCommand.self])
}
