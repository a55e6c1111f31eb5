import ArgumentParser
import LatchServer

/// `latchd admin sign-out ID`: end every session (the security reset).
struct AdminSignOutCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "sign-out", abstract: "End every session (the security reset).")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.signOut(id) }
}
