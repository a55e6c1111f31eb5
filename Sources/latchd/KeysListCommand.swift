import ArgumentParser

/// `latchd keys list`: each signing key's kid, creation time, role and retirement time.
struct KeysListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Each key's kid, creation time, role (signing, verifying, retired) and retirement.")

    func run() async throws {
        try await KeysCommand.perform("list") { _ in }
    }
}
