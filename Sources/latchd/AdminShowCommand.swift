import ArgumentParser
import LatchServer

/// `latchd admin show ID`: one user in full (sessions, factors, locks, security events, holds), as JSON.
struct AdminShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One user in full (JSON).")

    @Argument(help: AdminCommand.userID)
    var id: String

    func run() async throws {
        try await AdminConsole.run { admin in try AdminConsole.json(await admin.user(id)) }
    }
}
