import Foundation
import LatchTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real latchd binary on a free loopback port, SQLite in a temporary folder, development outbox.
///
final class Latchd: Sendable {
    let url: URL
    let folder: URL
    /// The `LATCH_*` configuration it runs with (for `latchd admin` on the same database).
    let environment: [String: String]
    /// latchd's process (to signal it and read its exit status).
    let process: ChildProcess
    /// Where latchd's stdout and stderr go.
    let log: URL

    private init(url: URL, folder: URL, environment: [String: String], process: ChildProcess, log: URL) {
        self.url = url
        self.folder = folder
        self.environment = environment
        self.process = process
        self.log = log
    }

    /// Starts latchd (with `extra` in its environment) and waits until `GET /health` answers.
    static func start(environment extra: [String: String] = [:]) async throws -> Latchd {
        let binary = try Binaries.require("latchd")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lastError: (any Error)?
        for _ in 0..<3 {
            let port = try freePort()
            let environment = ProcessInfo.processInfo.environment.merging([
                "LATCH_ENV": "development",
                "LATCH_PORT": String(port),
                "LATCH_HOST": "127.0.0.1",
                "LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("latch.sqlite").path,
                "LATCH_SECRET_KEY": Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(),
                "LATCH_BCRYPT_COST": "4",
                "LATCH_LOG_REQUESTS": "false",
            ].merging(extra) { $1 }) { $1 }
            let log = folder.appendingPathComponent("latchd-\(port).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = try ChildProcess([binary.path, "serve"], environment: environment, directory: folder, output: .file(log))
            let server = Latchd(
                url: URL(string: "http://127.0.0.1:\(port)")!, folder: folder, environment: environment, process: process, log: log)
            do {
                try await server.waitUntilHealthy()
                return server
            } catch {
                let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                lastError = LatchdError.didNotStart(log: said)
                await server.stop()
            }
        }
        try? FileManager.default.removeItem(at: folder)
        throw lastError ?? LatchdError.didNotStart(log: "")
    }

    /// SIGTERM, then waits for latchd to exit without blocking a thread (the test process's
    /// cooperative pool has one thread per core: tests blocking them stall every suite beside them).
    func stop() async {
        if process.isRunning {
            process.terminate()
            _ = await process.exited()
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    private func waitUntilHealthy() async throws {
        for _ in 0..<300 {
            guard process.isRunning else { throw LatchdError.didNotStart(log: "") }
            if let (_, response) = try? await URLSession.shared.data(from: url.appendingPathComponent("health")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw LatchdError.didNotStart(log: "")
    }

    /// `GET /v1/security-events` with the session stored in `home`: the event types, newest first.
    func securityEventTypes(home: URL) async throws -> [String] {
        let session = try Data(contentsOf: home.appendingPathComponent("session"))
        let stored = try JSONDecoder().decode(StoredTokens.self, from: session)
        var request = URLRequest(url: url.appendingPathComponent("v1/security-events"))
        request.setValue("Bearer \(stored.access_token)", forHTTPHeaderField: "Authorization")
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        return try JSONDecoder().decode([Event].self, from: body).map(\.type)
    }

    private struct StoredTokens: Decodable { let access_token: String }
    private struct Event: Decodable { let type: String }

    enum LatchdError: Error { case didNotStart(log: String) }

    /// A port nobody listens on now (`FreePort`, shared with the other test targets).
    static func freePort() throws -> Int { try FreePort.pick() }
}

/// Runs `body` with a fresh latchd, stopping it and deleting its folder (database, homes) afterwards.
func withLatchd(environment: [String: String] = [:], _ body: (Latchd) async throws -> Void) async throws {
    let server = try await Latchd.start(environment: environment)
    do {
        try await body(server)
    } catch {
        await server.stop()
        try? FileManager.default.removeItem(at: server.folder)
        throw error
    }
    await server.stop()
    try? FileManager.default.removeItem(at: server.folder)
}
