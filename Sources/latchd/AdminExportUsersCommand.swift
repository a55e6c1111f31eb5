import ArgumentParser
import LatchServer

/// `latchd admin export-users FILE`: every user in the import format (issue 45 §1), the file made 0600.
struct AdminExportUsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-users",
        abstract: "Write every user to a JSON Lines file in the import format (mode 0600).")

    @Argument(help: ArgumentHelp("The file to write (replaced).", valueName: "file"))
    var file: String

    @Flag(help: "Include authenticator (TOTP) secrets.")
    var includeTOTPSecrets = false

    func run() async throws {
        try await AdminConsole.run { admin in
            let count = try await admin.exportUsers(to: file, includeTOTPSecrets: includeTOTPSecrets)
            return "{\"users\": \(count)}"
        }
    }
}
