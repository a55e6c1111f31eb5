import Foundation
import LatchTestSupport
import Testing

/// One run of the `latch` binary: its exit status and what it printed.
struct LatchRun: Sendable, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let output: String
    let errors: String

    /// Standard output and standard error together.
    var all: String { output + errors }

    var description: String {
        "latch \(arguments.joined(separator: " ")) → \(status)\n--- stdout\n\(output)--- stderr\n\(errors)"
    }

    /// Whether `texts` appear in `output`, in this order.
    func showsInOrder(_ texts: [String]) -> Bool {
        var rest = output[...]
        for text in texts {
            guard let range = rest.range(of: text) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}

/// A `latch` process with its standard input open, for commands that answer what they print
/// (e.g. `2fa enable` shows the secret, then reads the code).
final class LatchSession: @unchecked Sendable {
    // @unchecked Sendable: used from one test at a time.
    let arguments: [String]
    private let process: ChildProcess
    private let outputFile: URL
    private let errorFile: URL

    /// - Parameter atTerminal: standard input is a pseudo-terminal (the person typing), not a pipe.
    init(
        _ arguments: [String], home: URL, server: Latchd, environment extra: [String: String] = [:],
        atTerminal: Bool = false
    ) throws {
        self.arguments = arguments
        let folder = home.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let id = UUID().uuidString
        outputFile = folder.appendingPathComponent("out-\(id)")
        errorFile = folder.appendingPathComponent("err-\(id)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        var environment = ProcessInfo.processInfo.environment
        environment["LATCH_HOME"] = home.path
        environment["LATCH_SERVER"] = server.url.absoluteString
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] { environment[name] = nil }
        environment.merge(extra) { $1 }
        process = try ChildProcess(
            [try Binaries.require("latch").path] + arguments, environment: environment,
            output: .files(standardOutput: outputFile, standardError: errorFile),
            standardInput: atTerminal ? .terminal : .pipe)
    }

    /// Writes `line` to the process's standard input.
    func send(_ line: String) {
        process.write(line + "\n")
    }

    /// Closes standard input.
    func closeInput() {
        process.closeInput()
    }

    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// Waits (up to `seconds`) until standard output contains `text`; returns the output so far.
    func waitForOutput(containing text: String, seconds: Double = 30) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let now = output
            if now.contains(text) { return now }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("latch \(arguments.joined(separator: " ")) never printed \(text); output:\n\(output)")
        throw LatchSessionError.timedOut
    }

    /// Closes standard input (unless `closingInput` is false: lines sent to a terminal and not read yet
    /// would be lost), waits for the exit (killing the process after `seconds`), and returns the run.
    func finish(seconds: Double = 120, closingInput: Bool = true) async -> LatchRun {
        if closingInput { closeInput() }
        let process = process
        let watchdog = Task.detached {
            try await Task.sleep(for: .seconds(seconds))
            if process.isRunning { process.terminate() }
        }
        let status = await process.exited()
        watchdog.cancel()
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return LatchRun(arguments: arguments, status: status, output: output, errors: errors)
    }

    enum LatchSessionError: Error { case timedOut }
}

/// Runs `latch arguments…` with `LATCH_HOME=home` against `server`, `input` on its standard input.
func latch(
    _ arguments: [String], home: URL, server: Latchd, input: String? = nil, environment: [String: String] = [:]
) async throws -> LatchRun {
    let session = try LatchSession(arguments, home: home, server: server, environment: environment)
    if let input { session.send(input) }
    return await session.finish()
}
