import ArgumentParser
import LatchClient

/// `latch deny URL` or `latch deny --verification ID`: the phone denies a sign-in or a verification
/// waiting for it (issue 43). Shows the request first, then `state: denied`.
struct DenyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny",
        abstract: "Deny a sign-in by its code's URL, or a verification waiting for this phone (--verification ID).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: ApprovalTarget

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let subject = try target.subject(server: context.serverURL, language: context.language)
        try await TerminalApproval(context: context, answers: [], number: nil, preset: .tappedDeny).run(subject)
    }
}
