import ArgumentParser
import Foundation
import LatchClient
import LatchCore

/// `latch 2fa enable`: a new secret (printed with its `otpauth://` URI, and as a QR code when
/// `qrencode` is installed and standard output is a terminal), then a first code turns it on and
/// the recovery codes are printed once.
struct TwoFactorEnableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable", abstract: "Turn on 2FA with an authenticator app.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The first code from the authenticator (else it is asked for after the secret is shown).")
    var code: String?

    @OptionGroup var simulation: SensorOptions

    @Flag(
        help:
            "When the sign-in is older than 10 minutes: the fund password for the verification page, from standard input."
    )
    var fundPasswordStdin = false

    func run() async throws {
        let context = CLIContext(global)
        let text = context.text
        try await context.requireSession()
        let enrollment: TOTPEnrollment
        do {
            enrollment = try await Progress(terminal: context.terminal).run(text.connecting) {
                try await context.client.enrollTOTP()
            }
        } catch let error as LatchClientError where error.code == .verificationRequired {
            // The sign-in is older than 10 minutes: turning 2FA on needs a verification of `enable_totp`.
            let fundPassword = fundPasswordStdin ? await StandardInput.shared.readLine(secret: false) : nil
            let proof = try await TerminalVerification(
                context: context, answers: simulation.answers, code: nil, fundPassword: fundPassword
            )
            .verify(VerificationAction.enableTOTP.rawValue, parameters: [:])
            enrollment = try await context.call(text.connecting) {
                try await context.client.enrollTOTP(verificationToken: proof.token)
            }
        } catch {
            throw context.failure(for: error)
        }
        context.terminal.line(text.field(text.totpSecretLabel, enrollment.secret, on: context.terminal))
        context.terminal.line(text.field(text.totpURILabel, enrollment.otpauthURI, on: context.terminal))
        if context.terminal.usesColor { QRCode.print(enrollment.otpauthURI) }
        context.terminal.line(text.totpScan)

        let typed: String
        if let code {
            typed = code
        } else {
            guard let entered = await context.terminal.ask(text.codePrompt)?.trimmingCharacters(in: .whitespaces),
                !entered.isEmpty
            else {
                throw CLIFailure.cancelled(text.codeMissing)
            }
            typed = entered
        }
        let recoveryCodes = try await context.call(text.connecting) {
            try await context.client.activateTOTP(code: typed)
        }
        context.terminal.line(context.terminal.paint(text.totpEnabled, .green))
        context.terminal.line(text.recoveryCodesHeading)
        for recoveryCode in recoveryCodes {
            context.terminal.line("  \(recoveryCode)")
        }
    }
}
