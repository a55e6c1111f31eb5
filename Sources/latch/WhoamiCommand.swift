import ArgumentParser
import Foundation
import LatchClient
import LatchCore

/// `latch whoami`: the signed-in user, from the server (`GET /v1/me`).
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in user.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the user as JSON.")
    var json = false

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let user = try await context.call(context.text.connecting) { try await context.client.me() }
        if json {
            context.terminal.line(try JSONOutput.string(user))
            return
        }
        let text = context.text
        let rows: [(String, String)] = [
            (text.emailLabel, user.email ?? "–"),
            (text.nicknameLabel, user.nickname ?? "–"),
            (text.userIDLabel, user.id),
            (text.verifiedLabel, user.emailVerified ? text.yes : text.no),
            (text.createdLabel, CLIText.time(user.createdAt))
        ]
        for (label, value) in rows {
            context.terminal.line(text.field(label, value, on: context.terminal))
        }
    }
}
