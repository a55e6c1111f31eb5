import ArgumentParser

/// `latch passkey`: the account's passkeys, made by the software authenticator whose keys live in
/// `LATCH_HOME` (issue 13).
struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "Add, list, rename and remove passkeys (software authenticator, keys in LATCH_HOME).",
        subcommands: [
            PasskeyAddCommand.self, PasskeyListCommand.self, PasskeyRenameCommand.self, PasskeyRemoveCommand.self
        ],
        defaultSubcommand: PasskeyListCommand.self)
}
