import ArgumentParser
import LatchClient
import LatchCore

/// `latch sessions [list]`: a table of the signed-in devices, this one marked, each saying whether it is
/// bound to a DPoP key (issue 31).
struct SessionsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the signed-in devices (this one marked).")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the sessions as JSON.")
    var json = false

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let sessions = try await context.call(context.text.connecting) { try await context.client.sessions() }
        if json {
            context.terminal.line(try JSONOutput.string(sessions))
            return
        }
        let rows = sessions.map { session in
            [
                session.current ? "*" : "",
                session.id,
                session.deviceName ?? session.deviceModel ?? "–",
                session.platform ?? "–",
                session.bound ? "DPoP" : "–",
                CLIText.time(session.lastActiveAt) + (session.current ? " (\(context.text.thisDevice))" : "")
            ]
        }
        let table = TextTable(headers: context.text.sessionHeaders, rows: rows)
        for (index, line) in table.lines.enumerated() {
            let isCurrent = index > 0 && sessions[index - 1].current
            context.terminal.line(
                index == 0
                    ? context.terminal.paint(line, .bold) : isCurrent ? context.terminal.paint(line, .green) : line)
        }
    }
}
