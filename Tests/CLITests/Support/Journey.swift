import Foundation
import LatchCore
import LatchTestSupport
import Testing

/// One journey's world: a latchd, a folder for the homes (one per simulated device), a language.
struct Journey {
    let server: Latchd
    let language: LatchLanguage
    let folder: URL

    init(server: Latchd, language: LatchLanguage) {
        self.server = server
        self.language = language
        self.folder = server.folder.appendingPathComponent("homes-\(UUID().uuidString)")
    }

    /// The home directory of device `name`.
    func home(_ name: String = "phone") -> URL {
        folder.appendingPathComponent(name, isDirectory: true)
    }

    /// `latch arguments… --lang <language>` on device `device`.
    func latch(_ arguments: [String], on device: String = "phone", input: String? = nil) async throws -> LatchRun {
        try await CLITests.latch(
            arguments + ["--lang", language.rawValue], home: home(device), server: server, input: input)
    }

    /// A running `latch` on device `device`, standard input open (a terminal when `atTerminal`).
    func start(_ arguments: [String], on device: String = "phone", atTerminal: Bool = false) throws -> LatchSession {
        try LatchSession(
            arguments + ["--lang", language.rawValue], home: home(device), server: server, atTerminal: atTerminal)
    }

    /// `latch arguments…` on device `device` with standard input a terminal where a person types `lines`,
    /// for what the CLI asks only a person (the biometric offer after `latch login`). Waits for the exit
    /// with the input open, so that no typed line is lost.
    func latchAtTerminal(_ arguments: [String], on device: String = "phone", typing lines: [String]) async throws
        -> LatchRun
    {
        let session = try start(arguments, on: device, atTerminal: true)
        for line in lines { session.send(line) }
        return await session.finish(seconds: 60, closingInput: false)
    }

    /// A new account, signed in on `device` (J1's command).
    func signUp(_ email: String, on device: String = "phone") async throws {
        let run = try await latch(
            ["signup", email, "--password-stdin", "--accept-terms", "--code-from-outbox"], on: device,
            input: Self.password)
        try #require(run.status == 0, "\(run)")
    }

    /// Signs up and turns on Face ID on `device` (J1 + J2).
    func signUpWithFaceID(_ email: String, on device: String = "phone", fundPassword: String? = nil) async throws {
        try await signUp(email, on: device)
        if let fundPassword {
            let set = try await latch(
                ["fund-password", "set", "--fund-password-stdin"], on: device, input: fundPassword)
            try #require(set.status == 0, "\(set)")
        }
        let enable = try await latch(["biometrics", "enable", "--simulate", "match"], on: device)
        try #require(enable.status == 0, "\(enable)")
    }

    /// Picks the text for this journey's language.
    func text(_ chinese: String, _ english: String) -> String {
        language == .zhHans ? chinese : english
    }

    static let password = "Correct-Horse-9"
    static let fundPassword = "135790"
}

/// Runs `body` as a journey in `language` on a fresh latchd.
func journey(
    _ language: LatchLanguage, environment: [String: String] = [:], _ body: (Journey) async throws -> Void
) async throws {
    try await withLatchd(environment: environment) { server in
        try await body(Journey(server: server, language: language))
    }
}
