import ArgumentParser
import LatchServer

/// `latchd keys rotate`: a new key signs at once; the previous ones verify until their tokens expired.
struct KeysRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Make a new key the signer at once (the previous keys verify until their tokens expired).")

    func run() async throws {
        try await KeysCommand.perform("rotate") { app in
            let kid = try await SigningKeyCommands.rotate(app)
            print("rotated: \(kid) signs new access tokens now (every instance within seconds)")
        }
    }
}
