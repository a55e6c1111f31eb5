import ArgumentParser
import LatchServer

/// `latchd admin unfreeze ID`: allow sign-in again (after freeze); a security hold starts.
struct AdminUnfreezeCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "unfreeze", abstract: "Allow sign-in again (after freeze); a security hold starts.")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.unfreeze(id) }
}
