import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// `latchd`: Latch's server. Without a subcommand it serves (`latchd serve`); `latchd admin …`,
/// `latchd keys …` and `latchd bcrypt-time` are the operator's commands, run with the same `LATCH_*`
/// configuration. Every command answers `--help` (also with a configuration that would not start).
///
/// Exit status: 0 done, 1 failed or refused, 2 usage or configuration error, 3 not confirmed
/// (`latchd admin delete`).
@main
struct Latchd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latchd",
        abstract: "Latch's authentication server: reads the LATCH_* configuration, migrates the database, serves.",
        discussion: """
            Without a subcommand latchd serves. Every command reads its configuration from the LATCH_* \
            environment variables (see docs/CONFIGURATION.md); a bad value stops it with one line naming the variable.
            Exit status: 0 done, 1 failed or refused (e.g. NOT_FOUND), 2 usage or configuration error, \
            3 not confirmed (admin delete).
            """,
        subcommands: [
            ServeCommand.self, AdminCommand.self, KeysCommand.self, BcryptTimeCommand.self, EventsReceiverCommand.self
        ],
        defaultSubcommand: ServeCommand.self
    )

    /// Parses, runs, and turns every outcome into one of the documented exit statuses (ArgumentParser's
    /// own usage status, 64, becomes 2).
    static func main() async {
        // Swift concurrency runs on the event loops that serve HTTP (issue 21): an async handler or
        // middleware then does not hop to another thread pool and back per request. Must come before any task starts; `false` (already installed) changes nothing.
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        do {
            var command = try parseAsRoot()
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
        if let failure = error as? LatchdFailure {
            if !failure.message.isEmpty { LatchdFailure.write(failure.message) }
            Foundation.exit(failure.status.rawValue)
        }
        let code = exitCode(for: error)
        if code == .success {
            print(fullMessage(for: error))
            Foundation.exit(0)
        }
        if code == .validationFailure {
            LatchdFailure.write(fullMessage(for: error))
            Foundation.exit(LatchdFailure.Status.usageOrConfiguration.rawValue)
        }
        if error is ExitCode {
            Foundation.exit(code.rawValue)
        }
        LatchdFailure.write("latchd: \(fullMessage(for: error))")
        Foundation.exit(LatchdFailure.Status.failed.rawValue)
    }
}
