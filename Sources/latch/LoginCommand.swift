import ArgumentParser
import LatchClient
import LatchCore

/// `latch login EMAIL` (password; an unusual sign-in asks for a code) or `latch login --biometric`
/// (the bound device key, after the simulated sensor matches: B6, C12).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in with email and password, or with Face ID / Touch ID on a bound device.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The account's email address (not with --biometric).")
    var email: String?

    @Flag(help: "Sign in with the simulated Face ID / Touch ID and this device's key.")
    var biometric = false

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    @Option(help: "The code for a sign-in from a new device (emailed, or from the authenticator when 2FA is on).")
    var code: String?

    @Flag(help: "For a sign-in from a new device, read the emailed code from the development server's outbox.")
    var codeFromOutbox = false

    @OptionGroup var sensor: SensorOptions

    func validate() throws {
        let text = CLIText(language: global.language, server: global.serverText)
        if biometric, email != nil { throw ValidationError(text.biometricLoginNeedsNoEmail) }
        if !biometric, email == nil { throw ValidationError(text.loginNeedsEmail) }
        if code != nil && codeFromOutbox { throw ValidationError("--code and --code-from-outbox exclude each other") }
    }

    func run() async throws {
        let context = CLIContext(global)
        if biometric {
            try await BiometricLogin(context: context, answers: sensor.answers).run()
        } else if let email {
            try await passwordLogin(context, email: email)
        }
    }

    private func passwordLogin(_ context: CLIContext, email: String) async throws {
        let text = context.text
        let password = try await PasswordEntry(context: context).password(fromStandardInput: passwordStdin)
        let emailedCode = try await EmailedCode(context: context, email: email, given: code, fromOutbox: codeFromOutbox)
        let user: UserInfo
        do {
            user = try await Progress(terminal: context.terminal).run(text.signingIn) {
                try await context.client.signIn(email: email, password: password)
            }
        } catch LatchClientError.signInVerificationRequired(let challenge) {
            context.terminal.line(text.unusualSignIn(challenge.method))
            let answer = try await emailedCode.read(prompt: text.codePrompt, mailed: challenge.method == .email)
            user = try await context.call(text.signingIn) { try await context.client.completeSignIn(challengeID: challenge.id, code: answer) }
        } catch {
            throw context.failure(for: error)
        }
        context.terminal.line(context.terminal.paint(text.signedIn(user), .green))
    }
}
