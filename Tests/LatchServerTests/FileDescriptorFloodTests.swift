import Foundation
import LatchTestSupport
import Testing

/// Issue 41 §3 E-X1 with the real latchd binary under a lowered open-file limit: one client holding more
/// connections than latchd has file descriptors used to kill it (libdispatch's worker monitor traps when it
/// cannot open `/proc/<tid>/stat`: SIGILL) or leave it refusing everyone until the flood ended.
/// It runs in a step of its own (`.ci/run`, `LATCH_TEST_FLOOD=1`), not inside the parallel suite: under the
/// whole suite's load on 2 cores, one of six runs in a fresh-clone run (96af09f) still saw latchd die with
/// SIGILL during the close storm after the flood. That is a finding, not noise: see docs/SECURITY.md.
@Suite(
    "latchd survives a connection flood beyond its open-file limit (issue 41 §3 E-X1)", .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["LATCH_TEST_FLOOD"] == "1",
        "runs alone in .ci/run's flood step (LATCH_TEST_FLOOD=1)"))
struct FileDescriptorFloodTests {
    /// Starts latchd with its open-file limit at `soft` (hard limit `hard`) through `sh`'s `ulimit`, on
    /// `databaseURL` (default SQLite in `folder`), its log in `folder`; waits until it answers `GET /health`.
    static func start(soft: Int, hard: Int, in folder: URL, databaseURL: String? = nil) async throws -> (
        ChildProcess, port: Int, log: URL
    ) {
        let port = try FreePort.pick()
        let log = folder.appendingPathComponent("latchd-\(port).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        var environment = LatchdProcess.defaultEnvironment(
            port: port, databaseURL: databaseURL ?? "sqlite://" + folder.appendingPathComponent("latch.sqlite").path)
        environment["LATCH_RATE_LIMIT_SCALE"] = "100"
        let process = try ChildProcess(
            [
                "/bin/sh", "-c", "ulimit -S -n \(soft) && ulimit -H -n \(hard) && exec \"$0\" serve",
                try LatchdProcess.binary().path
            ],
            environment: environment, directory: folder, output: .file(log))
        let healthy = try await eventually(within: .seconds(60), every: .milliseconds(100)) {
            guard process.isRunning else { return true }
            return await RawConnection.health(port: port, within: .seconds(2)) == 200
        }
        guard healthy, process.isRunning else {
            process.stop()
            throw LatchdProcess.StartError.didNotStart(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
        return (process, port, log)
    }

    /// Opens `count` connections to `port` from `sources` in turn (those latchd refuses are closed by it at
    /// once; a connect that fails is skipped), and sends `request` on every third.
    static func flood(port: Int, count: Int, from sources: [String], request: String) async -> [RawConnection] {
        var opened: [RawConnection] = []
        for index in 0..<count {
            guard let connection = try? await RawConnection.open(port: port, from: sources[index % sources.count])
            else { continue }
            if index % 3 == 0 { try? await connection.send(request) }
            opened.append(connection)
        }
        return opened
    }

    @Test(
        "41 §3 EX1 with the open-file limit at 256, 400 connections from one client, then 400 from twenty: latchd stays up, serves another address meanwhile and everyone afterwards (three runs in a row)",
        arguments: TestDatabase.all)
    func test_41_3_floodBeyondTheOpenFileLimit(database: TestDatabase) async throws {
        let body = #"{"grant_type":"password","email":"a@example.com","password":"nope"}"#
        let request =
            "POST /v1/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        for run in 1...3 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "latch-flood-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let databaseURL = try await LatchdProcess.databaseURL(database)
            let (latchd, port, log) = try await Self.start(soft: 256, hard: 256, in: folder, databaseURL: databaseURL)

            // One client, more connections than latchd has descriptors.
            let oneClient = await Self.flood(port: port, count: 400, from: ["127.0.0.1"], request: request)
            let otherDuringFlood = await RawConnection.health(port: port, from: "127.0.0.2")
            // Twenty clients, each within its own cap, together beyond the total.
            let manyClients = await Self.flood(
                port: port, count: 400, from: (2...21).map { "127.0.0.\($0)" }, request: request)
            try await Task.sleep(for: .seconds(3)) // requests on the held connections are answered meanwhile
            let aliveUnderFlood = latchd.isRunning
            // A refused connection is closed at accept, but on a loaded machine the client may see the
            // close late (a fresh-clone CI run counted 285 after 3 s): wait until the count settles.
            let flood = oneClient + manyClients
            _ = try await eventually(within: .seconds(30), every: .milliseconds(200)) {
                flood.filter { !$0.isClosed }.count <= 192
            }
            let heldOpen = flood.filter { !$0.isClosed }.count
            for connection in oneClient + manyClients { await connection.close() }
            let servedAfterwards = try await eventually(within: .seconds(30)) {
                await RawConnection.health(port: port) == 200
            }
            let aliveAfterwards = latchd.isRunning
            latchd.terminate()
            let status = await latchd.exited()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: folder)

            #expect(
                aliveUnderFlood && aliveAfterwards, "run \(run): latchd died (status \(status)):\n\(text.suffix(2000))")
            #expect(otherDuringFlood == 200, "run \(run): 127.0.0.2 was not served while 127.0.0.1 flooded")
            #expect(servedAfterwards, "run \(run): a fresh client was not served after the flood")
            #expect(heldOpen <= 192, "run \(run): \(heldOpen) held open, beyond the derived total of 192")
            #expect(status == 0, "run \(run): latchd stopped with \(status) on SIGTERM")
            #expect(
                !text.contains("00000000-0000-4000-8000-000000000000"), "run \(run): request ids from a failed read")
            #expect(text.contains("open_file_limit=256"), "run \(run): the limits were derived from the limit")
            print(
                "EX1 \(database) run \(run): \(heldOpen) of 800 connections held open, latchd \(aliveAfterwards ? "up" : "dead"), status \(status)"
            )
        }
    }

    @Test("41 §3 EX1 latchd raises its soft open-file limit to the hard limit at start, and derives its caps from it")
    func test_41_3_softLimitIsRaised() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-flood-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (latchd, _, log) = try await Self.start(soft: 256, hard: 2048, in: folder)
        latchd.terminate()
        _ = await latchd.exited()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: folder)

        #expect(text.contains("open_file_limit=2048"), "\(text.suffix(1500))")
        #expect(text.contains("maximum=1792"), "2048 less an eighth: \(text.suffix(1500))")
    }

    @Test(
        "41 §3 EX1 a LATCH_MAX_CONNECTIONS the open-file limit cannot hold stops latchd serve with a configuration error"
    )
    func test_41_3_capAboveTheLimitIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-flood-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("latchd.log")
        var environment = LatchdProcess.defaultEnvironment(
            port: try FreePort.pick(), databaseURL: "sqlite://" + folder.appendingPathComponent("latch.sqlite").path)
        environment["LATCH_MAX_CONNECTIONS"] = "500"
        let process = try ChildProcess(
            [
                "/bin/sh", "-c", "ulimit -S -n 256 && ulimit -H -n 256 && exec \"$0\" serve",
                try LatchdProcess.binary().path
            ],
            environment: environment, directory: folder, output: .file(log))
        // A latchd that started anyway is stopped after a minute (the test then fails, it does not hang).
        let stopped = try await eventually(within: .seconds(60), every: .milliseconds(50)) { !process.isRunning }
        if !stopped { process.stop() }
        let status = await process.exited()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: folder)

        #expect(stopped && status == 2, "\(text)")
        #expect(text.contains("LATCH_MAX_CONNECTIONS") && text.contains("at most 192"), "\(text)")
    }
}
