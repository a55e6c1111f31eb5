import ArgumentParser
import LatchServer

/// `latchd admin reset-fund-password ID`: remove the fund password (the user is mailed).
struct AdminResetFundPasswordCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "reset-fund-password", abstract: "Remove the fund password (the user is mailed).")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.resetFundPassword(id) }
}
