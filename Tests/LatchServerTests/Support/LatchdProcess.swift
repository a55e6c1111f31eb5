import FluentPostgresDriver
import Foundation
import LatchTestSupport
import Testing
import Vapor

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real latchd binary (built beside the tests: this target depends on it) on a free loopback
/// port, for the tests that kill -9 it, restart it, or run its operator commands.
final class LatchdProcess: Sendable {
    let url: String
    let log: URL
    private let process: ChildProcess

    enum LatchdError: Error { case notBuilt, didNotStart(String) }

    /// The latchd executable beside the test bundle (or in `.build/debug`).
    static func binary() throws -> URL {
        var directories: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug"))
        let found = directories.map { $0.appendingPathComponent("latchd") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let found else { throw LatchdError.notBuilt }
        return found
    }

    /// A database for latchd processes: an SQLite file in a new folder, or a new PostgreSQL database
    /// (the binary takes a URL, not a schema).
    static func databaseURL(_ database: TestDatabase) async throws -> String {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        switch database {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-process-\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
        case .postgres(let url):
            let app = try await Application.make(.testing)
            do {
                app.databases.use(.postgres(configuration: try SQLPostgresConfiguration(url: url)), as: .psql)
                try await (app.db as! any SQLDatabase).raw("CREATE DATABASE \(ident: String(name))").run()
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
            var components = try #require(URLComponents(string: url))
            components.path = "/" + name
            return try #require(components.string)
        }
    }

    /// The environment of a development latchd on `databaseURL` (plus `extra`).
    static func environment(databaseURL: String, port: Int, extra: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging([
            "LATCH_ENV": "development",
            "LATCH_HOST": "127.0.0.1",
            "LATCH_PORT": String(port),
            "LATCH_DATABASE_URL": databaseURL,
            "LATCH_SECRET_KEY": Data(repeating: 9, count: 32).base64EncodedString(),
            "LATCH_BCRYPT_COST": "4",
            "LATCH_LOG_REQUESTS": "false",
            // The rotation test signs in every half second until the new key signs.
            "LATCH_RATE_LIMIT_SCALE": "100",
        ].merging(extra) { $1 }) { $1 }
    }

    /// Starts `latchd serve` and waits until `GET /health` answers.
    static func start(databaseURL: String, extra: [String: String] = [:], logIn folder: URL) async throws -> LatchdProcess {
        let port = try freePort()
        let log = folder.appendingPathComponent("latchd-\(port).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try ChildProcess(
            [try binary().path, "serve"], environment: environment(databaseURL: databaseURL, port: port, extra: extra),
            output: .file(log))
        let server = LatchdProcess(url: "http://127.0.0.1:\(port)", log: log, process: process)
        for _ in 0..<600 {
            guard process.isRunning else { break }
            if let (_, response) = try? await URLSession.shared.data(from: URL(string: server.url + "/health")!),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return server
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        server.kill()
        throw LatchdError.didNotStart((try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// Runs `latchd ARGUMENTS` to its end; its exit status and output. Waits without blocking a
    /// thread: the test process's cooperative pool has one thread per core, and a test that blocks
    /// one (while a child migrates a database) stalls every other suite running beside it.
    static func run(_ arguments: [String], databaseURL: String) async throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("latchd-run-\(UUID().uuidString).log")
        let process = try ChildProcess(
            [try binary().path] + arguments, environment: environment(databaseURL: databaseURL, port: 8080), output: .file(log))
        process.closeInput()
        let status = await process.exited()
        defer { try? FileManager.default.removeItem(at: log) }
        return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    private init(url: String, log: URL, process: ChildProcess) {
        self.url = url
        self.log = log
        self.process = process
    }

    /// kill -9: no orderly stop, nothing released.
    func kill() { process.stop() }

    /// SIGTERM and wait (without blocking a thread, see `run`).
    func terminate() async {
        process.terminate()
        _ = await process.exited()
    }

    deinit { if process.isRunning { process.stop() } }

    /// Sends `json` with `method` to `path`; the status and the body.
    func send(_ method: String, _ path: String, json: [String: Any]? = nil, bearer: String? = nil) async throws -> (
        status: Int, body: [String: Any]
    ) {
        var request = URLRequest(url: URL(string: url + path)!)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }

    /// A port nobody listens on now (`FreePort`, shared with the other test targets).
    static func freePort() throws -> Int { try FreePort.pick() }
}
