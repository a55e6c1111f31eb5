import ArgumentParser
import LatchServer

/// `latchd admin unlock ID`: clear the user's locks and failure budgets.
struct AdminUnlockCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Clear the user's locks and failure budgets.")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.unlock(id) }
}
