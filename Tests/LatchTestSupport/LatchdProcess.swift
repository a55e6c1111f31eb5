import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `latchd` binary (built beside the tests) serving on a free loopback port: the one helper
/// every test target uses to start it (CLITests, the server's kill -9 / restart / operator-command
/// tests). For LatchServer inside the test process (a clock in the test's hands, the outbox read
/// directly) use `InProcessLatchd`.
///
/// ```swift
/// try await withLatchd { server in                      // development, SQLite in server.folder
///     let answer = try await server.send("GET", "/v1/me", bearer: token)
///     let run = try await server.run(["admin", "find", "alice@"])   // `latchd admin …` on its database
/// }
/// let server = try await LatchdProcess.start(environment: ["LATCH_SMTP_URL": "smtp://127.0.0.1:2525"],
///                                            databaseURL: "postgres://…", folder: logs)
/// server.kill()                                           // kill -9; `await server.stop()` is SIGTERM
/// ```
public final class LatchdProcess: Sendable {
    /// Where it listens: `http://127.0.0.1:PORT`.
    public let url: URL
    /// Its working directory; holds its log and, unless told otherwise, its SQLite database.
    public let folder: URL
    /// Its whole environment (the `LATCH_*` configuration), for `latchd admin …` on the same database.
    public let environment: [String: String]
    /// latchd's process (to signal it and read its exit status).
    public let process: ChildProcess
    /// Where its stdout and stderr go.
    public let log: URL

    /// `url` as a string without a trailing slash, to append paths to.
    public var baseURL: String { url.absoluteString }

    public enum StartError: Error, CustomStringConvertible {
        case notBuilt(lookedIn: [String])
        case didNotStart(log: String)

        public var description: String {
            switch self {
            case .notBuilt(let directories): "latchd is not built beside the tests (looked in \(directories))"
            case .didNotStart(let log): "latchd did not answer GET /health; its log:\n\(log)"
            }
        }
    }

    private init(url: URL, folder: URL, environment: [String: String], process: ChildProcess, log: URL) {
        self.url = url
        self.folder = folder
        self.environment = environment
        self.process = process
        self.log = log
    }

    deinit { if process.isRunning { process.stop() } }

    // MARK: Starting and stopping

    /// Starts `latchd serve` and waits (without blocking a thread) until `GET /health` answers 200.
    /// - Parameters:
    ///   - arguments: latchd's command line (default `serve`; `[]` is `latchd` alone, which serves too).
    ///   - extra: environment on top of `defaultEnvironment` (wins over it).
    ///   - databaseURL: `LATCH_DATABASE_URL`; default an SQLite file in `folder`.
    ///   - folder: working directory and log folder; default a new temporary folder (which
    ///     `withLatchd` deletes afterwards).
    /// When latchd exits during start (another test took its port between the pick and the bind) it
    /// tries again on another port, three times in all.
    public static func start(
        arguments: [String] = ["serve"], environment extra: [String: String] = [:], databaseURL: String? = nil,
        folder: URL? = nil
    ) async throws -> LatchdProcess {
        let binary = try binary()
        let folder =
            folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("latchd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let databaseURL = databaseURL ?? "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
        var lastError: any Error = StartError.didNotStart(log: "")
        for _ in 0..<3 {
            let port = try FreePort.pick()
            let environment = defaultEnvironment(port: port, databaseURL: databaseURL).merging(extra) { $1 }
            let log = folder.appendingPathComponent("latchd-\(port).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = try ChildProcess(
                [binary.path] + arguments, environment: environment, directory: folder, output: .file(log))
            let server = LatchdProcess(
                url: URL(string: "http://127.0.0.1:\(port)")!, folder: folder, environment: environment,
                process: process, log: log)
            if await server.becameHealthy(within: .seconds(60)) { return server }
            server.kill()
            lastError = StartError.didNotStart(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
        throw lastError
    }

    /// The environment latchd starts with: the test runner's, plus development mode on loopback
    /// `port`, `databaseURL`, a fixed secret key (a restarted latchd reads what the first one wrote),
    /// bcrypt cost 4 behind a queue no test fills by accident (`LatchConfig.useLoadIndependentLimits`),
    /// no request log.
    public static func defaultEnvironment(port: Int, databaseURL: String) -> [String: String] {
        ProcessInfo.processInfo.environment.merging([
            "LATCH_ENV": "development",
            "LATCH_HOST": "127.0.0.1",
            "LATCH_PORT": String(port),
            "LATCH_DATABASE_URL": databaseURL,
            "LATCH_SECRET_KEY": Data(repeating: 9, count: 32).base64EncodedString(),
            "LATCH_BCRYPT_COST": "4",
            "LATCH_BCRYPT_QUEUE": "1000",
            "LATCH_LOG_REQUESTS": "false"
        ]) { $1 }
    }

    private func becameHealthy(within limit: Duration) async -> Bool {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < limit {
            guard process.isRunning else { return false }
            if let (_, response) = try? await URLSession.shared.data(from: url.appendingPathComponent("health")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return true
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// SIGTERM, then waits for latchd to exit without blocking a thread (the test process's
    /// cooperative pool has one thread per core: a test blocking one stalls every suite beside it).
    public func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        _ = await process.exited()
    }

    /// kill -9: no orderly stop, nothing released.
    public func kill() { process.stop() }

    // MARK: Operator commands

    /// What one `latchd ARGUMENTS` run did.
    public struct Run: Sendable, CustomStringConvertible {
        public let status: Int32
        public let output: String
        public let errors: String

        /// stdout, then stderr.
        public var text: String { output + errors }
        public var description: String { "→ \(status)\n--- stdout\n\(output)--- stderr\n\(errors)" }
    }

    /// Runs `latchd ARGUMENTS` (`admin …`, `keys rotate`, …) with this server's environment and
    /// working directory, to its end, without blocking a thread.
    /// `input` is written to its stdin (then closed; nothing: end of input at once).
    public func run(_ arguments: [String], input: String? = nil) async throws -> Run {
        try await Self.run(arguments, environment: environment, directory: folder, input: input)
    }

    /// Runs `latchd ARGUMENTS` with `environment` in `directory` (default a temporary folder) to its end.
    public static func run(
        _ arguments: [String], environment: [String: String], directory: URL? = nil, input: String? = nil
    ) async throws -> Run {
        let directory = directory ?? FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let out = directory.appendingPathComponent("latchd-run-\(id).out"),
            err = directory.appendingPathComponent("latchd-run-\(id).err")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let process = try ChildProcess(
            [try binary().path] + arguments, environment: environment, directory: directory,
            output: .files(standardOutput: out, standardError: err))
        if let input { process.write(input) }
        process.closeInput()
        let status = await process.exited()
        return Run(
            status: status, output: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// The latchd executable beside the test bundle (or in `.build/debug`).
    public static func binary() throws -> URL {
        guard let found = BuiltProducts.executable(named: "latchd") else {
            throw StartError.notBuilt(lookedIn: BuiltProducts.directories.map(\.path))
        }
        return found
    }

    /// A port nobody listens on now (`FreePort.pick()`).
    public static func freePort() throws -> Int { try FreePort.pick() }

    // MARK: HTTP

    /// Sends `json` (a dictionary or an `Encodable`) with `method` to `path`; what came back.
    public func send(
        _ method: String, _ path: String, json: Any? = nil, bearer: String? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPAnswer {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        if let json {
            request.httpBody =
                if let encodable = json as? any Encodable { try JSONEncoder().encode(encodable) } else {
                    try JSONSerialization.data(withJSONObject: json)
                }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return HTTPAnswer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, data: data)
    }
}

/// Runs `body` with a fresh `LatchdProcess` (started with `environment`), then stops it and deletes
/// its folder (database, log, anything the test put there), also when `body` throws.
public func withLatchd(environment: [String: String] = [:], _ body: (LatchdProcess) async throws -> Void) async throws {
    let server = try await LatchdProcess.start(environment: environment)
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
