import ArgumentParser
import Foundation
import LatchClient
import LatchCore

/// `latch signup EMAIL`: email registration (C2) with the strength meter (C3), the terms and the
/// emailed code.
struct SignupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create an account: password, terms, then the code sent by email.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The email address of the new account.")
    var email: String

    @Option(help: "A nickname for the profile.")
    var nickname: String?

    @Flag(help: "Read the password from the first line of standard input instead of asking twice.")
    var passwordStdin = false

    @Flag(help: "Accept the Terms of Service (《用户协议》) and the Privacy Policy (《隐私政策》) without asking.")
    var acceptTerms = false

    @Option(help: "The 6-digit code from the email.")
    var code: String?

    @Flag(help: "Read the emailed code from the development server's outbox (GET /dev/outbox).")
    var codeFromOutbox = false

    func validate() throws {
        if code != nil && codeFromOutbox { throw ValidationError("--code and --code-from-outbox exclude each other") }
    }

    func run() async throws {
        let context = CLIContext(global)
        let text = context.text
        guard EmailAddress(email) != nil else { throw CLIFailure.failed(text.invalidEmail(email)) }

        let password = try await PasswordEntry(context: context).newPassword(fromStandardInput: passwordStdin)
        context.terminal.line(text.strength(PasswordStrength(of: password)))
        let violations = PasswordPolicy.standard.violations(of: password)
        guard violations.isEmpty else { throw CLIFailure.failed(text.weakPassword(violations)) }

        if !acceptTerms {
            let answer = await context.terminal.ask(text.termsQuestion)?.trimmingCharacters(in: .whitespaces)
                .lowercased()
            guard let answer, ["y", "yes", "是", "同意"].contains(answer) else {
                throw CLIFailure.cancelled(text.termsDeclined)
            }
        }

        let emailedCode = try await EmailedCode(context: context, email: email, given: code, fromOutbox: codeFromOutbox)
        let registration = try await context.call(text.registering) {
            try await context.client.signUp(email: email, password: password, nickname: nickname, acceptTerms: true)
        }
        context.terminal.line(text.codeSent(email))
        let typed = try await emailedCode.read(prompt: text.emailCodePrompt)
        let user = try await context.call(text.registering) {
            try await context.client.verifyRegistration(id: registration, code: typed)
        }
        context.terminal.line(context.terminal.paint(text.signedUp(user), .green))
    }
}
