import ArgumentParser
import LatchServer

/// `latchd admin disable ID`: refuse every sign-in and end the user's sessions.
struct AdminDisableCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Refuse every sign-in and end the user's sessions.")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.disable(id) }
}
