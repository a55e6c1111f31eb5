import ArgumentParser

/// `latch fund-password`: the separate secret for money actions (D2).
struct FundPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fund-password", abstract: "Set the fund password that confirms money actions.",
        subcommands: [FundPasswordSetCommand.self])
}
