import ArgumentParser
import LatchClient
import LatchCore

/// `latch fund-password set`: six digits, asked twice without echo (or `--fund-password-stdin`),
/// checked by LatchCore's rule before it is sent. Changing it, or setting it later than 10 minutes
/// after signing in, first runs the verification page (`change_fund_password` / `set_fund_password`).
struct FundPasswordSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set or change the fund password that confirms money actions.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Read the new fund password from the first line of standard input.")
    var fundPasswordStdin = false

    @Flag(
        help:
            "For a change: read the current fund password, for the verification page, from the next line of standard input."
    )
    var currentFundPasswordStdin = false

    @OptionGroup var simulation: SensorOptions

    @Option(help: ArgumentHelp("For a change: a 2FA code for the verification page.", valueName: "code"))
    var code: String?

    func run() async throws {
        let context = CLIContext(global)
        let text = context.text
        try await context.requireSession()
        let fundPassword = try await PasswordEntry(context: context).newFundPassword(
            fromStandardInput: fundPasswordStdin)
        if let violation = FundPasswordPolicy.violations(of: fundPassword).first {
            throw CLIFailure.failed(text.fundPasswordViolation(violation))
        }
        do {
            try await Progress(terminal: context.terminal).run(text.connecting) {
                try await context.client.setFundPassword(fundPassword)
            }
        } catch let error as LatchClientError where error.code == .verificationRequired {
            // A change names the current fund password as what is missing; a late first set does not.
            let action =
                error.serverError?.field == "current_fund_password"
                ? VerificationAction.changeFundPassword.rawValue : VerificationAction.setFundPassword.rawValue
            let current = currentFundPasswordStdin ? await StandardInput.shared.readLine(secret: false) : nil
            let proof = try await TerminalVerification(
                context: context, answers: simulation.answers, code: code, fundPassword: current
            )
            .verify(action, parameters: [:])
            try await context.call(text.connecting) {
                try await context.client.setFundPassword(fundPassword, verificationToken: proof.token)
            }
        } catch {
            throw context.failure(for: error)
        }
        context.terminal.line(context.terminal.paint(text.fundPasswordSet, .green))
    }
}
