import ArgumentParser
import LatchClient

/// `latch account security`: the running security holds (what is paused, why, until when) and the
/// anti-phishing code (`GET /v1/me/security`, issue 19).
struct AccountSecurityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "security", abstract: "Show the running security holds and the anti-phishing code.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the server's answer as JSON.")
    var json = false

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let status = try await context.call(context.text.connecting) { try await context.client.accountSecurity() }
        if json { return context.terminal.line(try JSONOutput.string(status)) }
        let text = AccountSecurityText(language: context.language)
        let strings = VerificationStrings(context.language)
        context.terminal.line(text.antiPhishingCode(status.antiPhishingCode))
        if status.holds.isEmpty { return context.terminal.line(text.noHolds) }
        for hold in status.holds {
            context.terminal.line(context.terminal.paint(text.hold(hold, strings: strings), .yellow))
        }
    }
}
