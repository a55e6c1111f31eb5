import ArgumentParser
import LatchServer

/// `latchd admin enable ID`: allow sign-in again (after disable).
struct AdminEnableCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "enable", abstract: "Allow sign-in again (after disable).")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.enable(id) }
}
