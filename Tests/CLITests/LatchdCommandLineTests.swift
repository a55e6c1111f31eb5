import Foundation
import LatchTestSupport
import Testing

/// Issue 22 §3: `latchd`, `latchd admin …`, `latchd keys …` and `latchd bcrypt-time` are ArgumentParser
/// commands: each answers `--help`, a wrong command line exits 2 with the usage on stderr, and the
/// documented exit statuses and serving without arguments stay.
@Suite("latchd commands on ArgumentParser (issue 22 §3)", .timeLimit(.minutes(3)))
struct LatchdCommandLineTests {
    /// Every command line that names a command, with what its help must say.
    static let commands: [(arguments: [String], says: String)] = [
        ([], "latchd serves"), (["serve"], "LATCH_HOST"), (["admin"], "audited as `console`"),
        (["admin", "find"], "starts with TEXT"), (["admin", "show"], "One user in full"),
        (["admin", "unlock"], "locks and failure budgets"), (["admin", "disable"], "Refuse every sign-in"),
        (["admin", "enable"], "Allow sign-in again"), (["admin", "sign-out"], "End every session"),
        (["admin", "reset-totp"], "two-factor"), (["admin", "reset-fund-password"], "fund password"),
        (["admin", "freeze"], "security reset"), (["admin", "unfreeze"], "security hold starts"),
        (["admin", "lift-hold"], "security hold"), (["admin", "delete"], "--yes"),
        (["admin", "audit"], "audit entries"), (["keys"], "signing keys"), (["keys", "list"], "retirement"),
        (["keys", "rotate"], "new key the signer"), (["keys", "retire"], "<kid>"),
        (["bcrypt-time"], "LATCH_BCRYPT_COST")
    ]

    /// A configuration latchd refuses (bcrypt cost out of range), in a folder of its own.
    static func refusedConfiguration(_ folder: URL) -> [String: String] {
        ProcessInfo.processInfo.environment.merging([
            "LATCH_ENV": "development", "LATCH_BCRYPT_COST": "99",
            "LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("l.sqlite").path
        ]) { $1 }
    }

    /// `text` with every run of white space (the help's line wrapping) as one space.
    static func flat(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latchd-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("22 §3 every latchd command answers --help on stdout with exit status 0, even when the configuration is bad")
    func test_22_3_everyCommandAnswersHelp() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = Self.refusedConfiguration(folder)

        var answers: [(arguments: [String], says: String, run: LatchdProcess.Run)] = []
        for (arguments, says) in Self.commands {
            let run = try await LatchdProcess.run(arguments + ["--help"], environment: environment, directory: folder)
            answers.append((arguments, says, run))
        }
        let root = try await LatchdProcess.run(["--help"], environment: environment, directory: folder)

        for (arguments, says, run) in answers {
            let usage = (["latchd"] + arguments).joined(separator: " ")
            #expect(run.status == 0, "\(arguments) --help: \(run)")
            #expect(Self.flat(run.output).contains("USAGE: \(usage)"), "\(arguments): \(run)")
            #expect(Self.flat(run.output).contains(says), "\(arguments) --help says \(says): \(run)")
            #expect(run.errors.isEmpty, "\(arguments): \(run)")
        }
        for subcommand in ["serve", "admin", "keys", "bcrypt-time", "2 usage or configuration error"] {
            #expect(Self.flat(root.output).contains(subcommand), "latchd --help names \(subcommand): \(root)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("l.sqlite").path))
    }

    @Test(
        "22 §3 a wrong latchd command line exits 2 with the usage on stderr and does nothing; a --hostname flag is not a way around LATCH_HOST"
    )
    func test_22_3_usageErrorsExit2() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = LatchdProcess.defaultEnvironment(
            port: try LatchdProcess.freePort(),
            databaseURL: "sqlite://" + folder.appendingPathComponent("l.sqlite").path)
        let wrong: [[String]] = [
            ["admin"], ["admin", "explode", "x"], ["admin", "disable"], ["admin", "unlock", "a", "b"],
            ["admin", "find", "alice@", "--yes"], ["keys"], ["keys", "spin"], ["keys", "retire"],
            ["bcrypt-time", "now"], ["serve", "--hostname", "0.0.0.0"], ["--port", "8081"], ["--log", "loud"],
            ["frobnicate"]
        ]

        var runs: [([String], LatchdProcess.Run)] = []
        for arguments in wrong {
            runs.append(
                (arguments, try await LatchdProcess.run(arguments, environment: environment, directory: folder)))
        }

        for (arguments, run) in runs {
            #expect(run.status == 2, "\(arguments): \(run)")
            #expect(run.errors.lowercased().contains("usage: latchd"), "\(arguments) prints the usage: \(run)")
            #expect(run.output.isEmpty, "\(arguments): \(run)")
        }
        // No command ran: none opened (or created) the database.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("l.sqlite").path))
    }

    @Test("22 §3 a bad configuration still exits 2 with one line naming the variable, for every command")
    func test_22_3_configurationErrorsExit2() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = Self.refusedConfiguration(folder)

        var runs: [([String], LatchdProcess.Run)] = []
        for arguments in [[], ["serve"], ["admin", "audit"], ["keys", "list"], ["bcrypt-time"]] {
            runs.append(
                (arguments, try await LatchdProcess.run(arguments, environment: environment, directory: folder)))
        }

        for (arguments, run) in runs {
            #expect(run.status == 2, "\(arguments): \(run)")
            #expect(
                run.errors.hasPrefix("latchd: configuration error: ") && run.errors.contains("LATCH_BCRYPT_COST"),
                "\(arguments): \(run)")
        }
    }

    @Test("22 §3 latchd with no arguments serves (as CI and the benchmarks start it), and so does latchd --log LEVEL")
    func test_22_3_latchdAloneServes() async throws {
        let plain = try await LatchdProcess.start(arguments: [])
        let quiet = try await LatchdProcess.start(arguments: ["--log", "warning"])
        let plainHealth = try await plain.send("GET", "/health").status
        let quietHealth = try await quiet.send("GET", "/health").status
        await plain.stop()
        await quiet.stop()
        let plainStatus = await plain.process.exited()
        let quietStatus = await quiet.process.exited()
        let plainLog = try String(contentsOf: plain.log, encoding: .utf8)
        let quietLog = try String(contentsOf: quiet.log, encoding: .utf8)
        try? FileManager.default.removeItem(at: plain.folder)
        try? FileManager.default.removeItem(at: quiet.folder)

        #expect(plainHealth == 200 && quietHealth == 200)
        #expect(plainStatus == 0 && quietStatus == 0, "SIGTERM: exit status 0")
        // latchd says "Server started" at notice: logged at the default level (info), not at --log warning.
        #expect(plainLog.contains("Server started on"), "\(plainLog)")
        #expect(!quietLog.contains("Server started on"), "\(quietLog)")
    }
}
