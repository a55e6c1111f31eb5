import ArgumentParser
import LatchServer

/// `latchd keys retire KID`: ends a key that leaked at once (out of the JWKS, its tokens refused, also
/// those an instance had remembered); when it signs, a new key takes over first.
struct KeysRetireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retire",
        abstract: "End a key at once (a key that leaked): out of the JWKS, its tokens refused.",
        discussion: "When the key signs, a new key takes over first.")

    @Argument(help: ArgumentHelp("The key's id (the KID column of `latchd keys list`).", valueName: "kid"))
    var kid: String

    func run() async throws {
        try await KeysCommand.perform("retire") { app in
            if let successor = try await SigningKeyCommands.retire(app, kid: kid) {
                print("rotated: \(successor) signs new access tokens now")
            }
            print("retired: \(kid) no longer verifies; its tokens are refused (every instance within seconds)")
        }
    }
}
