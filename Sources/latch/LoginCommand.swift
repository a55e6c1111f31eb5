import ArgumentParser
import LatchClient
import LatchCore

/// `latch login EMAIL` (password; an unusual sign-in asks for a code), `latch login --phone NUMBER`
/// (a texted code; the first sign-in of a number creates its account) or `latch login --biometric`
/// (the bound device key, after the simulated sensor matches: B6, C12).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract:
            "Sign in with email and password, a phone number and a texted code, or Face ID / Touch ID on a bound device."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The account's email address (not with --biometric).")
    var email: String?

    @Flag(help: "Sign in with the simulated Face ID / Touch ID and this device's key.")
    var biometric = false

    @Flag(
        help: "Sign in with a passkey of this device (see `latch passkey add`); with an EMAIL, one of that account's.")
    var passkey = false

    @Option(name: .customLong("email"), help: "The account's email (the same as the EMAIL argument).")
    var emailOption: String?

    @Option(help: "Sign in with this phone number (E.164, e.g. +8613800138000) and the code texted to it.")
    var phone: String?

    @Flag(
        help:
            "Sign in with your signed-in phone (issue 43): prints `qr_url:` and `number:` lines, then waits until the phone approves (latch approve URL)."
    )
    var withPhone = false

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    @Option(
        help:
            "The texted code (--phone), or the code for a sign-in from a new device (emailed, or from the authenticator when 2FA is on)."
    )
    var code: String?

    @Flag(help: "Read the texted code (--phone) or a new device's emailed code from the development server's outbox.")
    var codeFromOutbox = false

    @OptionGroup var sensor: SensorOptions

    func validate() throws {
        let text = CLIText(language: global.language, server: global.serverText)
        if email != nil, emailOption != nil { throw ValidationError(text.emailOrPhone) }
        let email = email ?? emailOption
        if passkey, biometric || phone != nil { throw ValidationError(text.passkeyLoginTakesNoPhone) }
        if biometric, email != nil || phone != nil { throw ValidationError(text.biometricLoginNeedsNoEmail) }
        if email != nil, phone != nil { throw ValidationError(text.emailOrPhone) }
        if withPhone, biometric || passkey || email != nil || phone != nil {
            throw ValidationError("--with-phone takes no email, --phone, --biometric or --passkey")
        }
        if !withPhone, !biometric, !passkey, email == nil, phone == nil {
            throw ValidationError(text.loginNeedsEmail)
        }
        if code != nil && codeFromOutbox { throw ValidationError("--code and --code-from-outbox exclude each other") }
    }

    func run() async throws {
        let context = CLIContext(global)
        let email = email ?? emailOption
        if withPhone {
            // The phone's verification screened this sign-in: no biometric offer (this is the web's side).
            try await PhoneLogin(context: context).run()
            return
        }
        if biometric {
            try await BiometricLogin(context: context, answers: sensor.answers).run()
        } else if passkey {
            // A passkey is a strong factor: no emailed code follows, even on a new device.
            let user = try await context.call(context.text.signingIn) {
                try await context.client.signInWithPasskey(email: email, authenticator: context.passkeys)
            }
            context.terminal.line(context.terminal.paint(context.text.signedInWithPasskey(user), .green))
        } else if let phone {
            try await phoneLogin(context, phone: phone)
        } else if let email {
            try await passwordLogin(context, email: email)
        }
        if !biometric { await BiometricOfferPrompt(context: context).offer() }
    }

    private func passwordLogin(_ context: CLIContext, email: String) async throws {
        let text = context.text
        let password = try await PasswordEntry(context: context).password(fromStandardInput: passwordStdin)
        let emailedCode = try await EmailedCode(context: context, email: email, given: code, fromOutbox: codeFromOutbox)
        let user = try await signIn(context, challengeCode: emailedCode) {
            try await context.client.signIn(email: email, password: password)
        }
        context.terminal.line(context.terminal.paint(text.signedIn(user), .green))
    }

    /// C1: a 6-digit code texted to `phone` (the development outbox in development), then the
    /// `sms_code` grant; an unusual sign-in of an account with an email asks for its emailed code too.
    private func phoneLogin(_ context: CLIContext, phone: String) async throws {
        let text = context.text
        let texted = try await EmailedCode(context: context, email: phone, given: code, fromOutbox: codeFromOutbox)
        _ = try await context.call(text.sendingCode) { try await context.client.requestSMSCode(phone: phone) }
        context.terminal.line(text.codeTexted(phone))
        let answer = try await texted.read(prompt: text.codePrompt)
        // The unusual-sign-in code goes to the account's email, unknown here: it is asked for.
        let asked = try await EmailedCode(context: context, email: phone, given: nil, fromOutbox: false)
        let user = try await signIn(context, challengeCode: asked) {
            try await context.client.signIn(phone: phone, code: answer)
        }
        // The token response's user lists no identities: name a phone-only account by its number.
        context.terminal.line(context.terminal.paint(text.signedIn(as: user.email ?? phone), .green))
    }

    /// Runs `attempt`; when it is an unusual sign-in (C8), reads the challenge's code from
    /// `challengeCode` and completes it.
    private func signIn(
        _ context: CLIContext, challengeCode: EmailedCode, _ attempt: () async throws -> UserInfo
    ) async throws -> UserInfo {
        let text = context.text
        do {
            return try await Progress(terminal: context.terminal).run(text.signingIn, attempt)
        } catch LatchClientError.signInVerificationRequired(let challenge) {
            context.terminal.line(text.unusualSignIn(challenge.method))
            let answer = try await challengeCode.read(prompt: text.codePrompt, mailed: challenge.method == .email)
            return try await context.call(text.signingIn) {
                try await context.client.completeSignIn(challengeID: challenge.id, code: answer)
            }
        } catch {
            throw context.failure(for: error)
        }
    }
}
