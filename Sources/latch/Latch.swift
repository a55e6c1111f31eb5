import ArgumentParser
import Foundation

/// `latch`: a command-line client of latchd built on LatchClient, with a simulated Face ID / Touch ID
/// sensor, so that every journey of the product runs on a machine without one.
///
/// Exit codes: 0 done, 1 failed, 2 usage, 3 cancelled by the user, 4 held by a security hold (`verify`), 5 over
/// a policy limit (`verify`), 6 a new value still locked (`verify`).
@main
struct Latch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latch",
        abstract: "A command-line client of latchd, with a simulated Face ID / Touch ID sensor.",
        discussion: """
            Global options (--server, --lang, --home) go before or after the subcommand, e.g. `latch --lang en whoami`.
            Exit codes: 0 done, 1 failed, 2 usage error, 3 cancelled by the user, 4 the action is paused by a security hold (verify prints the hold page), 5 the action would pass a policy limit (verify prints the limit page), 6 a new value of the action is still locked (verify prints the lock page with its countdown).
            """,
        subcommands: [
            SignupCommand.self, LoginCommand.self, LogoutCommand.self, WhoamiCommand.self, SessionsCommand.self,
            BiometricsCommand.self, PasskeyCommand.self, TwoFactorCommand.self, FundPasswordCommand.self,
            VerifyCommand.self, AccountCommand.self, PasswordCommand.self, AppAttestCommand.self,
            ApprovalsCommand.self, ApproveCommand.self, DenyCommand.self
        ]
    )

    /// Parses, runs, and turns every outcome into one of the seven exit codes (ArgumentParser's own
    /// usage status, 64, becomes 2).
    static func main() async {
        do {
            var command = try parseAsRoot(
                LeadingGlobalOptions.movedBehindSubcommand(Array(CommandLine.arguments.dropFirst())))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(with: error)
        }
    }

    private static func exit(with error: any Error) -> Never {
        if let failure = error as? CLIFailure {
            if !failure.message.isEmpty { Terminal.standard.error(failure.message) }
            Foundation.exit(failure.status.rawValue)
        }
        let code = exitCode(for: error)
        if code == .success {
            Terminal.standard.line(fullMessage(for: error))
            Foundation.exit(0)
        }
        if code == .validationFailure {
            Terminal.standard.error(fullMessage(for: error))
            Foundation.exit(CLIFailure.Status.usage.rawValue)
        }
        if error is ExitCode {
            Foundation.exit(code.rawValue)
        }
        Terminal.standard.error("latch: \(fullMessage(for: error))")
        Foundation.exit(CLIFailure.Status.failed.rawValue)
    }
}
