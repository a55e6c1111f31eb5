import ArgumentParser
import Foundation
import LatchClient

/// `latch account freeze`: "this wasn't me" (issue 19 §3). Signed in, it freezes the account at once (no
/// verification needed): every session, passkey and device key ends, and this home is signed out.
/// With `--link TOKEN` (the `#freeze=` part of the link in a security mail) it needs no sign-in.
struct AccountFreezeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "freeze",
        abstract: "Freeze the account (\"this wasn't me\"): every device is signed out until the password is reset.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The token of a freeze link from a security mail (after #freeze=).", valueName: "token"))
    var link: String?

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        let context = CLIContext(global)
        let text = AccountSecurityText(language: context.language)
        if let link {
            try await context.call(context.text.connecting) { try await context.client.freeze(linkToken: link) }
            return context.terminal.line(text.freezeLinkAccepted)
        }
        let user = try await context.requireSession()
        if !yes {
            let name = user.email ?? user.identities?.first?.identifier ?? user.id
            let answer = await context.terminal.ask(text.freezeQuestion(name))?.trimmingCharacters(in: .whitespaces)
                .lowercased()
            guard let answer, ["yes", "y", "是", "确认"].contains(answer) else {
                throw CLIFailure.cancelled(text.notFrozen)
            }
        }
        try await context.call(context.text.connecting) { try await context.client.freezeAccount() }
        context.terminal.line(context.terminal.paint(text.frozen, .green))
    }
}
