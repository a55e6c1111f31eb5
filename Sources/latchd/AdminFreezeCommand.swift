import ArgumentParser
import LatchServer

/// `latchd admin freeze ID`: run the security reset and refuse every sign-in.
struct AdminFreezeCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "freeze", abstract: "Run the security reset and refuse every sign-in.")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.freeze(id) }
}
