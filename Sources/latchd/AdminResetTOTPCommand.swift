import ArgumentParser
import LatchServer

/// `latchd admin reset-totp ID`: remove two-factor authentication (the user is mailed).
struct AdminResetTOTPCommand: AdminUserAction {
    static let configuration = CommandConfiguration(
        commandName: "reset-totp", abstract: "Remove two-factor authentication (the user is mailed).")

    @Argument(help: AdminCommand.userID)
    var id: String

    func perform(on admin: AdminService) async throws { try await admin.resetTOTP(id) }
}
