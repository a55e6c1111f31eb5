import ArgumentParser
import LatchClient

/// `latch approve URL [--number NN]` (the phone's side of a QR sign-in, issue 43 §1) and
/// `latch approve --verification ID [--number NN]` (a verification pushed to this phone, §2): shows who
/// asks and the three numbers, takes the number (`--number`, else asked), passes the verification page with
/// the simulated sensor signing by this home's device key, and approves. Ends with `state: approved` (exit
/// 0), `state: wrong_number` / `expired` (exit 1) or `state: closed` (exit 3).
struct ApproveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve a sign-in by its code's URL, or a verification waiting for this phone (--verification ID).",
        discussion: """
            Prints the request (title, who asks, `numbers: NN NN NN`), the verification page's steps, then a \
            `state:` line: approved, denied, frozen, expired, wrong_number or closed.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: ApprovalTarget

    @Option(help: ArgumentHelp("The number shown on the other screen (asked when missing).", valueName: "NN"))
    var number: String?

    @Flag(help: "\"This wasn't me\": freeze the account instead (every device is signed out).")
    var notMe = false

    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    func validate() throws {
        if notMe, number != nil { throw ValidationError("--not-me takes no --number") }
    }

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let subject = try target.subject(server: context.serverURL, language: context.language)
        let approval = TerminalApproval(
            context: context, answers: simulation.answers, number: number, preset: notMe ? .tappedNotMe : nil,
            secrets: VerificationSecrets(code: secrets.code, fundPassword: await secrets.fundPassword()))
        try await approval.run(subject)
    }
}
