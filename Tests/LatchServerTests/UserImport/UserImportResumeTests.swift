import Foundation
import LatchTestSupport
import SQLKit
import Testing

@testable import LatchServer

/// Issue 45 §1: `latchd admin import` killed with SIGKILL in the middle, then run again on the same file,
/// ends with every line in exactly once (the real binary, on a SQLite file and on a PostgreSQL database).
@Suite("Moving in: an import survives kill -9 (issue 45 §1)")
struct UserImportResumeTests {
    static let lines = 8_000

    @Test(
        "45 §1 resumable: kill -9 in the middle, then the same command again: every line in exactly once",
        arguments: TestDatabase.all)
    func test_45_1_resumeAfterKill(database: TestDatabase) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("users.jsonl")
        var text = ""
        for i in 0..<Self.lines {
            text +=
                #"{"external_id":"u\#(i)","email":"user\#(i)@example.com","password_hash":"\#(UserImportFixtures.bcryptPassword.hash)"}"#
                + "\n"
        }
        try Data(text.utf8).write(to: file)
        let databaseURL = try await LatchdProcess.databaseURL(database)
        let environment = LatchdProcess.defaultEnvironment(
            port: try LatchdProcess.freePort(), databaseURL: databaseURL)

        // The schema first (an empty file), so the kill falls among the lines, not in a migration.
        let empty = folder.appendingPathComponent("empty.jsonl")
        try Data().write(to: empty)
        let migrated = try await LatchdProcess.run(
            ["admin", "import", empty.path], environment: environment, directory: folder)
        try #require(migrated.status == 0, "\(migrated)")

        // The first run, killed once some batches are in.
        let first = try ChildProcess(
            [try LatchdProcess.binary().path, "admin", "import", file.path], environment: environment,
            directory: folder,
            output: .files(
                standardOutput: folder.appendingPathComponent("first.out"),
                standardError: folder.appendingPathComponent("first.err")))
        _ = try await eventually {
            guard first.isRunning else { return true }
            return try await Self.someBatchesAreIn(database, url: databaseURL)
        }
        #expect(first.isRunning, "the first run must still be going when it is killed (make the file longer)")
        first.stop()

        // The same command again: what the first run committed is unchanged, the rest imported.
        let second = try await LatchdProcess.run(
            ["admin", "import", file.path], environment: environment, directory: folder)
        #expect(second.status == 0, "\(second)")
        let report = try JSONDecoder().decode(UserImportReport.self, from: Data(second.output.utf8))
        #expect(report.unchanged > 0 && report.imported > 0, "the kill fell in the middle: \(report.lines) lines")
        #expect(report.imported + report.unchanged == Self.lines && report.refusedCount == 0, "\(second)")

        // And once more: every line is in, once.
        let third = try await LatchdProcess.run(
            ["admin", "import", file.path], environment: environment, directory: folder)
        let again = try JSONDecoder().decode(UserImportReport.self, from: Data(third.output.utf8))
        #expect(again.unchanged == Self.lines && again.imported == 0, "\(third)")
    }

    /// Whether the running import has committed some batches: SQLite's write-ahead log has grown past 1 MB,
    /// or PostgreSQL's `user_imports` holds 1,000 rows.
    static func someBatchesAreIn(_ database: TestDatabase, url: String) async throws -> Bool {
        switch database {
        case .sqlite:
            let wal = url.dropFirst("sqlite://".count) + "-wal"
            return ((try? FileManager.default.attributesOfItem(atPath: String(wal))[.size] as? Int) ?? 0) > 1_000_000
        case .postgres:
            let rows = try await TestDatabase.withPostgres(url) { sql in
                try await sql.raw("SELECT count(*) AS n FROM user_imports").first()?.decode(column: "n", as: Int.self)
            }
            return (rows ?? 0) >= 1_000
        }
    }
}
