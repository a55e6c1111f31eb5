import ArgumentParser
import LatchServer

/// `latchd admin find TEXT`: the users (at most 100) whose email, phone number or id starts with TEXT, as JSON.
struct AdminFindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", abstract: "Users whose email, phone or id starts with TEXT (JSON, at most 100).")

    @Argument(
        help: ArgumentHelp("The start of an email, a phone number (+ optional) or an id; any case.", valueName: "text"))
    var text: String

    func run() async throws {
        try await AdminConsole.run { admin in
            try AdminConsole.json(await admin.findUsers(matching: text, cursor: nil, limit: 100))
        }
    }
}
