import ArgumentParser
import LatchCore

/// `latch fund-password set`: six digits, asked twice without echo (or `--fund-password-stdin`),
/// checked by LatchCore's rule before it is sent.
struct FundPasswordSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set the fund password (within 10 minutes of signing in).")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Read the new fund password from the first line of standard input.")
    var fundPasswordStdin = false

    func run() async throws {
        let context = CLIContext(global)
        let text = context.text
        try await context.requireSession()
        let fundPassword = try await PasswordEntry(context: context).newFundPassword(fromStandardInput: fundPasswordStdin)
        if let violation = FundPasswordPolicy.violations(of: fundPassword).first {
            throw CLIFailure.failed(text.fundPasswordViolation(violation))
        }
        try await context.call(text.connecting) { try await context.client.setFundPassword(fundPassword) }
        context.terminal.line(context.terminal.paint(text.fundPasswordSet, .green))
    }
}
