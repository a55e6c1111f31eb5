import ArgumentParser
import Foundation
import LatchClient
import LatchCore

/// `latch password reset EMAIL`: mails a reset code, then sets the new password with it. Every session of
/// the account ends. A frozen account (issue 19 §3) is unfrozen by it; when 2FA is on the server asks for
/// the second factor too (`--second-factor`, else asked at the terminal).
struct PasswordResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Reset the password with the code sent by email (and the 2FA code when the server asks).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The account's email address.")
    var email: String

    @Flag(help: "Read the new password from the first line of standard input instead of asking twice.")
    var passwordStdin = false

    @Option(help: "The 6-digit code from the email.")
    var code: String?

    @Flag(help: "Read the emailed code from the development server's outbox (GET /dev/outbox).")
    var codeFromOutbox = false

    @Option(help: ArgumentHelp("The 2FA code or a recovery code, when the server asks for it.", valueName: "code"))
    var secondFactor: String?

    func validate() throws {
        if code != nil && codeFromOutbox { throw ValidationError("--code and --code-from-outbox exclude each other") }
    }

    func run() async throws {
        let context = CLIContext(global)
        let text = AccountSecurityText(language: context.language)
        guard EmailAddress(email) != nil else { throw CLIFailure.failed(context.text.invalidEmail(email)) }
        let emailedCode = try await EmailedCode(context: context, email: email, given: code, fromOutbox: codeFromOutbox)
        try await context.call(context.text.connecting) { try await context.client.forgotPassword(email: email) }
        context.terminal.line(text.resetCodeSent(email))
        let typed = try await emailedCode.read(prompt: text.resetCodePrompt)
        let password = try await PasswordEntry(context: context).newPassword(fromStandardInput: passwordStdin)
        do {
            try await Progress(terminal: context.terminal).run(context.text.connecting) {
                try await context.client.resetPassword(
                    email: email, code: typed, newPassword: password, secondFactor: secondFactor)
            }
        } catch let error as LatchClientError where error.needsSecondFactor && secondFactor == nil {
            let asked = await context.terminal.ask(text.secondFactorPrompt, secret: false)?
                .trimmingCharacters(in: .whitespaces)
            guard let asked, !asked.isEmpty else { throw CLIFailure.failed(text.secondFactorMissing) }
            try await context.call(context.text.connecting) {
                try await context.client.resetPassword(
                    email: email, code: typed, newPassword: password, secondFactor: asked)
            }
        } catch {
            throw context.failure(for: error)
        }
        context.terminal.line(context.terminal.paint(text.passwordReset, .green))
    }
}
