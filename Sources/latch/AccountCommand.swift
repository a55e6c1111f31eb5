import ArgumentParser

/// `latch account`: deleting the account and exporting its data (issue 12 §1).
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Delete the account, or export everything the server holds about it.",
        subcommands: [AccountDeleteCommand.self, AccountExportCommand.self])
}
