import ArgumentParser

/// `latch account anti-phishing`: the code every mail from latchd shows (issue 19 §4).
struct AntiPhishingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anti-phishing", abstract: "Set or remove the anti-phishing code shown in every mail.",
        subcommands: [AntiPhishingSetCommand.self, AntiPhishingRemoveCommand.self])
}
