import ArgumentParser
import LatchClient

/// `latch verify ACTION key=value…`: the verification page for a sensitive action (A1–A10); on
/// success the token is redeemed once and the action's confirmation printed. Cancel: exit 3, and
/// nothing is redeemed (A4). A security hold (issue 19 §2): the hold page is printed, exit 4. A policy asking
/// for two factors (issue 30 §3): each step is printed; a policy limit exits 5, a locked new value 6.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a sensitive action (e.g. `verify withdrawal amount=100.00 currency=USDT`) and execute it.",
        discussion: """
            When the server's policy asks for two verifications, each step is printed ("Face ID passed. One more \
            verification is needed.") and the next is answered from --simulate, --code, --fund-password-stdin or \
            --code-from-outbox (the emailed code), else asked.
            Exit codes: 0 verified and executed, 1 failed, 2 usage error, 3 cancelled, 4 paused by a security hold \
            (the hold page is printed), 5 the action would pass a policy limit (POLICY_LIMIT: the limit and what is \
            left are printed), 6 a new value of the action is still locked (NEW_VALUE_LOCKED: until when is printed).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The action, e.g. withdrawal.")
    var action: String

    @Argument(help: "The action's parameters as key=value.")
    var parameters: [String] = []

    @Option(
        name: .customLong("description"),
        help: ArgumentHelp(
            "What the person confirms, shown on the card and by the prompt (seed 000 §5.1), e.g. \"提现 100 USDT 至 TXabc…\".",
            valueName: "text"))
    var operationDescription: String?

    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    @Flag(help: "Read an emailed verification code from the development server's outbox (GET /dev/outbox).")
    var codeFromOutbox = false

    @Option(
        help: ArgumentHelp(
            "`device`: let your phone approve it (issue 43 §2): prints `verification_id:` and `number:` lines and waits for the phone's approval.",
            valueName: "device"))
    var approveOn: String?

    func validate() throws {
        let text = CLIText(language: global.language, server: global.serverText)
        for parameter in parameters where !parameter.contains("=") || parameter.hasPrefix("=") {
            throw ValidationError(text.invalidParameter(parameter))
        }
        if let approveOn, approveOn != "device" { throw ValidationError("--approve-on takes only `device`") }
    }

    private var parameterValues: [String: String] {
        var values: [String: String] = [:]
        for parameter in parameters {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return values
    }

    func run() async throws {
        let context = CLIContext(global)
        let user = try await context.requireSession()
        let fundPassword = await secrets.fundPassword()
        let values = parameterValues
        let proof =
            approveOn != nil
            ? try await PhoneApprovedVerification(context: context).verify(action, parameters: values)
            : try await TerminalVerification(
                context: context, answers: simulation.answers, code: secrets.code, fundPassword: fundPassword,
                emailCodes: VerificationEmailCodes(
                    context: context, email: user.email ?? "", fromOutbox: codeFromOutbox)
            )
            .verify(action, parameters: values, description: operationDescription)
        let redeemed = try await context.call(context.text.connecting) {
            try await context.client.redeemVerification(
                proof.token, action: proof.context.action, parameters: proof.context.parameters)
        }
        context.terminal.line(
            context.terminal.paint(context.text.confirmation(redeemed, parameters: proof.context.parameters), .green))
    }
}
