import ArgumentParser
import Foundation
import LatchServer

/// `latchd admin delete ID [--yes]`: deletes the account for good, as `DELETE /v1/me` does. It asks on
/// stderr and reads the answer from stdin first: only `yes` goes on (no terminal, or end of input, is a
/// no: exit status 3, nothing deleted); `--yes` skips the question, for scripts.
struct AdminDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract:
            "Delete the account for good, as DELETE /v1/me does (data erased, every session ended, the owner mailed).",
        discussion: """
            Asks to type yes first; no answer, or any other, keeps the account (exit status 3). \
            --yes skips the question, for scripts.
            """
    )

    @Argument(help: AdminCommand.userID)
    var id: String

    @Flag(help: "Delete without asking.")
    var yes = false

    func run() async throws {
        if !yes, !Self.confirmDeletion(of: id) {
            throw LatchdFailure(
                message: "\nlatchd admin: not confirmed; the account was not deleted", status: .notConfirmed)
        }
        try await AdminConsole.run { admin in
            try await admin.deleteUser(id)
            return "ok"
        }
    }

    /// Asks on stderr whether to delete `id` and reads the answer from stdin.
    static func confirmDeletion(of id: String) -> Bool {
        FileHandle.standardError.write(
            Data("latchd admin: delete account \(id) and all its data for good? Type yes to confirm > ".utf8))
        return readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "yes"
    }
}
