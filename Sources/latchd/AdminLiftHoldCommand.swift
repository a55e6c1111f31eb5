import ArgumentParser
import LatchServer

/// `latchd admin lift-hold ID`: end the user's running security hold.
struct AdminLiftHoldCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "lift-hold", abstract: "End the user's running security hold.")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.liftHold(id) }
}
