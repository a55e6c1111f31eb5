import ArgumentParser
import LatchServer

/// A `latchd admin` action on one user that prints `ok` when done (`unlock ID`, `disable ID`, …).
///
///     struct AdminUnlockCommand: AdminUserAction {
///         static let configuration = CommandConfiguration(commandName: "unlock", abstract: "…")
///         @Argument(help: AdminCommand.userID) var id: String
///         func perform(on admin: AdminService) async throws { try await admin.unlock(id) }
///     }
protocol AdminUserAction: AsyncParsableCommand {
    /// The user's id.
    var id: String { get }
    /// Does the action through the admin service.
    func perform(on admin: AdminService) async throws
}

extension AdminUserAction {
    func run() async throws {
        try await AdminConsole.run { admin in
            try await perform(on: admin)
            return "ok"
        }
    }
}
