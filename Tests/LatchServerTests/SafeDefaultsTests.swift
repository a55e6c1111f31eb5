import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import Logging
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 10 §4 "safe by default": text from clients cannot disguise itself in security mails or forge
/// log lines, 5xx logs hold no database error text (which echoes user data), and the SQLite files
/// are readable by latchd's user only.
@Suite("Safe by default (issue 10)")
struct SafeDefaultsTests {
    @Test(
        "test_10 device names in security mails lose bidi overrides, zero-width and control characters, fold look-alikes, and are cut to 64"
    )
    func test_10_mailTextIsCleaned() throws {
        let tricks =
            "iPhone\u{202E}gpj.exe\u{202C} \u{2066}x\u{2069}\u{200B}\u{200D}\u{FEFF}\u{00AD}\r\nSubject: hi\u{1B}[31m\u{0000}"
        let cleaned = try #require(MailDisplayText.cleaned(tricks))
        let banned: [UInt32] = [
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x200C, 0x200D, 0xFEFF,
            0x00AD, 0x0D, 0x0A, 0x1B, 0x00
        ]

        #expect(
            !cleaned.unicodeScalars.contains { banned.contains($0.value) },
            "\(cleaned.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(cleaned == "iPhonegpj.exe x Subject: hi[31m")
        #expect(MailDisplayText.cleaned("𝐀𝐩𝐩𝐥𝐞 Ｓｕｐｐｏｒｔ") == "Apple Support", "look-alike letters fold to plain ones")
        #expect(
            MailDisplayText.cleaned("e\u{301}\u{301}\u{301}\u{301}\u{301}x")?.unicodeScalars.count == 4,
            "at most two combining marks")
        #expect(MailDisplayText.cleaned("\u{200B}\u{3164} \u{202E}") == nil, "nothing visible is nothing")
        #expect(MailDisplayText.cleaned("张三的 iPhone") == "张三的 iPhone", "ordinary text is unchanged")
        let long = try #require(MailDisplayText.cleaned(String(repeating: "A", count: 500)))
        #expect(long.count == 64 && long.hasSuffix("…"))
    }

    @Test(
        "test_10 the device-bound and new-sign-in mails show the cleaned name in text and HTML",
        arguments: [LatchLanguage.en, .zhHans])
    func test_10_securityMailsShowCleanedNames(language: LatchLanguage) throws {
        let name = "Alice\u{202E}s iPhone\u{200B}<b>\n" + String(repeating: "x", count: 200)
        let mails = [
            MailTemplates.deviceBound(deviceName: name, language: language),
            MailTemplates.newDeviceSignedIn(deviceName: name, ip: "203.0.113.9\u{202E}", language: language)
        ]
        for mail in mails {
            for text in [mail.body, mail.html] {
                #expect(!text.unicodeScalars.contains { [0x202E, 0x200B].contains($0.value) })
                #expect(!text.contains(String(repeating: "x", count: 64)), "the name is cut")
            }
            #expect(mail.body.contains("Alices iPhone<b> x"))
            #expect(
                mail.html.contains("Alices iPhone&lt;b&gt; x") && !mail.html.contains("<b>"), "and still HTML-escaped")
        }
    }

    @Test(
        "test_10 request paths are logged escaped: %0D%0A in a URL cannot start a forged log line (LATCH_LOG_REQUESTS on)"
    )
    func test_10_requestPathsAreLoggedEscaped() async throws {
        let lines = LogCapture()
        let server = try await TestServer.start(
            .sqlite, logger: Logger(label: "test") { _ in lines }, adjust: { $0.logRequests = true })
        do {
            _ = try await server.send(.GET, "/v1/nope%0D%0Alevel=info%20message=forged%1B%5B2J")
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()

        let logged = lines.text.split(separator: "\n").filter { $0.hasPrefix("info ") }.joined(separator: "\n")
        #expect(!logged.contains("\r") && !logged.contains("\u{1B}"), "\(logged)")
        #expect(logged.contains("GET /v1/nope%0D%0Alevel=info%20message=forged%1B%5B2J"), "\(logged)")
        #expect(!logged.split(separator: "\n").contains { $0.hasPrefix("level=info") }, "no forged line")
        #expect(LogSafeText.escaped("/a b\u{7F}é%zz") == "/a%20b%7F%C3%A9%25zz")
        #expect(LogSafeText.escaped(String(repeating: "a", count: 300)).count == 257)
    }

    @Test(
        "test_10 a 5xx log names the error type and request id, never the database's error text with user data",
        arguments: TestDatabase.all)
    func test_10_serverErrorLogsHoldNoDatabaseDetails(database: TestDatabase) async throws {
        let lines = LogCapture()
        try await withServer(database, logger: Logger(label: "test") { _ in lines }) { server in
            let alice = try await server.signUp("alice@example.com")
            let bob = try await server.signUp("bob@example.com")
            // A constraint latchd does not expect makes the second PATCH fail inside the database;
            // PostgreSQL's error then says "Key (nickname)=(Leaky-Nick-7731) already exists".
            try await server.app.db.sql.raw("CREATE UNIQUE INDEX test_unique_nickname ON users (nickname)").run()

            let first = try await server.send(
                .PATCH, "/v1/me", json: ["nickname": "Leaky-Nick-7731"], bearer: alice.accessToken)
            let failed = try await server.send(
                .PATCH, "/v1/me", json: ["nickname": "Leaky-Nick-7731"], bearer: bob.accessToken,
                headers: [("X-Request-Id", "req-42")])

            #expect(first.status == 200, "\(first.text)")
            #expect(failed.status == 500 && failed.errorCode == "INTERNAL_ERROR", "\(failed.text)")
            #expect(!failed.text.contains("Leaky"))
            // What latchd logs at its default level (info); trace and debug lines (Fluent's queries with
            // their binds, the HTTP parts) are for a developer who asked for them.
            let shownLevels = ["info", "notice", "warning", "error", "critical"]
            let logged = lines.text.split(separator: "\n").filter { line in
                shownLevels.contains { line.hasPrefix($0 + " ") }
            }
            .joined(separator: "\n")
            let line = try #require(logged.split(separator: "\n").first { $0.contains("request failed") }, "\(logged)")
            #expect(!logged.contains("Leaky-Nick-7731"), "\(logged)")
            #expect(
                line.contains("error_type") && line.contains("req-42")
                    && line.contains(#""database_error": constraint"#), "\(line)")
            #expect(line.contains("/v1/me"))
        }
    }

    @Test(
        "test_10 the SQLite database, its WAL and shared-memory files are 0600, and a looser existing file is tightened"
    )
    func test_10_sqliteFilesArePrivate() async throws {
        let location = try await TestDatabase.sqlite.makeLocation()
        guard case .sqlite(let path) = location else { Issue.record("expected an SQLite location"); return }
        // A database file left with the usual 0644 by an older latchd.
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        let server = try await TestServer.start(.sqlite, sharing: location)
        try await server.signUp("alice@example.com")

        let modes = try ["", "-wal", "-shm"].map { suffix in
            ((try FileManager.default.attributesOfItem(atPath: path + suffix))[.posixPermissions] as? NSNumber)?
                .intValue
        }
        try await server.stop()

        #expect(modes == [0o600, 0o600, 0o600], "\(modes.map { $0.map { String($0, radix: 8) } ?? "none" })")
        let fresh = try await TestDatabase.sqlite.makeLocation()
        guard case .sqlite(let freshPath) = fresh else { return }
        try SQLiteFilePermissions.restrict(databaseAt: freshPath)
        let freshMode = (try FileManager.default.attributesOfItem(atPath: freshPath)[.posixPermissions] as? NSNumber)?
            .intValue
        #expect(freshMode == 0o600, "a new database file is created 0600")
    }
}
