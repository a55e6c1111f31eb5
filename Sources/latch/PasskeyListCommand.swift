import ArgumentParser
import LatchClient
import LatchCore

/// `latch passkey list [--json]`: the account's passkeys.
struct PasskeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the account's passkeys.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the passkeys as JSON.")
    var json = false

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let passkeys = try await context.call(context.text.connecting) { try await context.client.passkeys() }
        if json {
            context.terminal.line(try JSONOutput.string(passkeys))
            return
        }
        guard !passkeys.isEmpty else { return context.terminal.line(context.text.noPasskeys) }
        let text = context.text
        let rows = passkeys.map { passkey in
            [
                passkey.id, passkey.name, CLIText.time(passkey.createdAt), passkey.lastUsedAt.map(CLIText.time) ?? "–",
                passkey.backedUp ? text.yes : text.no, passkey.attestation
            ]
        }
        for (index, line) in TextTable(headers: text.passkeyHeaders, rows: rows).lines.enumerated() {
            context.terminal.line(index == 0 ? context.terminal.paint(line, .bold) : line)
        }
    }
}
