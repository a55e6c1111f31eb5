import ArgumentParser
import LatchClient

/// `latch verify ACTION key=value…`: the verification page for a sensitive action (A1–A10); on
/// success the token is redeemed once and the action's confirmation printed. Cancel: exit 3, and
/// nothing is redeemed (A4). A security hold (issue 19 §2): the hold page is printed, exit 4.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a sensitive action (e.g. `verify withdrawal amount=100.00 currency=USDT`) and execute it.")

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

    func validate() throws {
        let text = CLIText(language: global.language, server: global.serverText)
        for parameter in parameters where !parameter.contains("=") || parameter.hasPrefix("=") {
            throw ValidationError(text.invalidParameter(parameter))
        }
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
        try await context.requireSession()
        let fundPassword = await secrets.fundPassword()
        let values = parameterValues
        let proof = try await TerminalVerification(
            context: context, answers: simulation.answers, code: secrets.code, fundPassword: fundPassword
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
