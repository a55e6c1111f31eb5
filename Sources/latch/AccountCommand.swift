import ArgumentParser

/// `latch account`: deleting the account and exporting its data (issue 12 §1); freezing it, its security
/// holds and its anti-phishing code (issue 19).
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Delete, export or freeze the account; show its security holds; set its anti-phishing code.",
        subcommands: [
            AccountDeleteCommand.self, AccountExportCommand.self, AccountFreezeCommand.self,
            AccountSecurityCommand.self, AntiPhishingCommand.self
        ])
}
