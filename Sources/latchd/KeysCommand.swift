import ArgumentParser
import LatchServer

/// `latchd keys list`, `latchd keys rotate` and `latchd keys retire KID`: the signing keys in the
/// database latchd's configuration names (the running instances pick a change up within seconds).
/// `retire` ends a key at once (a key that leaked): out of the JWKS, its tokens refused, also those an
/// instance had remembered; when it signs, a new key takes over first. Each prints the keys afterwards:
///
///     $ latchd keys list
///     KID                CREATED               ROLE       RETIRES
///     q2V…               2026-01-01T00:00:00Z  verifying  2026-04-01T02:05:00Z
///     9fX…               2026-04-01T00:00:00Z  signing    -
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List, rotate or retire the access-token signing keys in the configured database.",
        discussion: """
            Every running latchd on that database picks a change up within seconds. Each command prints the keys \
            afterwards (kid, creation time, role, retirement time).
            Exit status: 0 done, 1 failed, 2 usage or configuration error.
            """,
        subcommands: [KeysListCommand.self, KeysRotateCommand.self, KeysRetireCommand.self]
    )

    /// `latchd keys` without a subcommand: a usage error (exit status 2) that lists them.
    func run() throws {
        throw LatchdFailure.usage(Latchd.helpMessage(for: Self.self))
    }

    /// Runs `change` on the configured application (`ConsoleApplication`), then prints the keys' table.
    /// A failure is one line naming the subcommand (exit status 1).
    static func perform(_ subcommand: String, _ change: (LatchApplication) async throws -> Void) async throws {
        do {
            try await ConsoleApplication.run { app in
                try await change(app)
                print(SigningKeyTable.text(try await SigningKeyCommands.list(app)))
            }
        } catch let failure as LatchdFailure {
            throw failure
        } catch {
            throw LatchdFailure.failed("latchd keys \(subcommand) failed: \(String(describing: error))")
        }
    }
}
