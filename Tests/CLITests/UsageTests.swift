// What a person expects of any CLI: usage errors exit 2, a server that is down is one line naming
// it, no colour into a pipe.
import Foundation
import LatchCore
import LatchTestSupport
import Testing

@Suite("latch usage and failures", .serialized, .timeLimit(.minutes(10)))
struct UsageTests {
    @Test("Usage errors exit 2 (unknown subcommand, bad --lang, bad --simulate, bad parameter)")
    func Usage_errorsExit2() async throws {
        try await withLatchd { server in
            let home = server.folder.appendingPathComponent("home")
            for arguments in [
                ["bogus"], ["whoami", "--lang", "fr"], ["verify", "withdrawal", "--simulate", "smile"],
                ["verify", "withdrawal", "amount"], ["sessions", "revoke"], ["login"]
            ] {
                let run = try await latch(arguments, home: home, server: server)
                #expect(run.status == 2, "\(run)")
            }
        }
    }

    @Test("C11 a server that is down: one line naming the URL, exit 1 (zh-Hans)")
    func C11_serverDownNamesTheURLInChinese() async throws { try await C11_serverDownNamesTheURL(.zhHans) }

    @Test("C11 a server that is down: one line naming the URL, exit 1 (en)")
    func C11_serverDownNamesTheURLInEnglish() async throws { try await C11_serverDownNamesTheURL(.en) }

    private func C11_serverDownNamesTheURL(_ language: LatchLanguage) async throws {
        try await withLatchd { server in
            let (home, signup) = try await Self.signUp("down@example.com", on: server, language: language.rawValue)
            try #require(signup.status == 0, "\(signup)")
            await server.stop()

            let run = try await latch(["whoami", "--lang", language.rawValue], home: home, server: server)

            #expect(run.status == 1, "\(run)")
            let lines = run.errors.split(separator: "\n")
            #expect(lines.count == 1, "\(run)")
            #expect(lines.first?.contains(server.url.absoluteString) == true, "\(run)")
            #expect(
                lines.first?.contains(language == .zhHans ? "无法连接到服务器" : "Cannot reach the server") == true, "\(run)")

            // The verification page says it could not start; the command's last word names the server.
            let verify = try await latch(
                ["verify", "withdrawal", "amount=1", "--lang", language.rawValue], home: home, server: server)
            #expect(verify.status == 1, "\(verify)")
            #expect(verify.errors.split(separator: "\n").last?.contains(server.url.absoluteString) == true, "\(verify)")
        }
    }

    @Test("A10 the language comes from --lang, else LC_ALL, LC_MESSAGES, LANG (zh… is Chinese, the rest English)")
    func A10_languageFromTheLocale() async throws {
        try await withLatchd { server in
            let home = server.folder.appendingPathComponent("nobody")
            let cases: [([String], [String: String], String)] = [
                ([], ["LANG": "zh_CN.UTF-8"], "尚未登录"),
                ([], ["LANG": "zh_CN.UTF-8", "LC_ALL": "C"], "Not signed in."),
                ([], ["LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"], "尚未登录"),
                ([], [:], "Not signed in."),
                (["--lang", "en"], ["LANG": "zh_CN.UTF-8"], "Not signed in."),
                (["--lang", "zh-Hans"], [:], "尚未登录")
            ]
            for (options, environment, expected) in cases {
                let run = try await latch(["whoami"] + options, home: home, server: server, environment: environment)
                #expect(run.status == 1 && run.errors.hasPrefix(expected), "\(environment) \(run)")
            }
        }
    }

    @Test("issue 11 §5 global options work before the subcommand too, as in git and kubectl")
    func test_11_5_globalOptionsBeforeTheSubcommand() async throws {
        try await withLatchd { server in
            let home = server.folder.appendingPathComponent("before")

            let chinese = try await latch(["--lang", "zh-Hans", "whoami"], home: home, server: server)
            let english = try await latch(
                ["--lang=en", "whoami"], home: home, server: server, environment: ["LANG": "zh_CN.UTF-8"])
            let badServer = try await latch(["--server", "ftp://example.com", "whoami"], home: home, server: server)
            let homeFirst = try await latch(
                ["--home", home.path, "--lang", "en", "verify", "withdrawal", "amount=1"], home: home, server: server)

            #expect(chinese.status == 1 && chinese.errors.hasPrefix("尚未登录"), "\(chinese)")
            #expect(english.status == 1 && english.errors.hasPrefix("Not signed in."), "\(english)")
            #expect(
                badServer.status == 2 && badServer.errors.contains("--server must be an http:// or https:// URL"),
                "\(badServer)")
            #expect(homeFirst.status == 1 && homeFirst.errors.hasPrefix("Not signed in."), "\(homeFirst)")
        }
    }

    @Test("No colour and no spinner when the output is not a terminal; --json is plain JSON")
    func Output_plainWhenNotATerminal() async throws {
        try await withLatchd { server in
            let (home, signup) = try await Self.signUp("plain@example.com", on: server, language: "en")
            let sessions = try await latch(["sessions", "--json"], home: home, server: server)

            #expect(signup.status == 0, "\(signup)")
            #expect(!signup.all.contains("\u{1B}["), "\(signup)")
            #expect(!sessions.all.contains("\u{1B}["), "\(sessions)")
            #expect(try JSONSerialization.jsonObject(with: Data(sessions.output.utf8)) is [Any])
        }
    }

    @Test("A4 a verification with nothing to answer it fails (exit 1), never counted as success")
    func A4_noAnswersLeftFails() async throws {
        try await withLatchd { server in
            let (home, signup) = try await Self.signUp("noanswer@example.com", on: server, language: "en")
            try #require(signup.status == 0, "\(signup)")
            let fund = try await latch(
                ["fund-password", "set", "--fund-password-stdin"], home: home, server: server, input: "135790")
            try #require(fund.status == 0, "\(fund)")

            // No biometrics here: the fund-password page comes first, and standard input is empty.
            let run = try await latch(["verify", "withdrawal", "amount=1", "--lang", "en"], home: home, server: server)

            #expect(run.status == 1, "\(run)")
            #expect(run.output.contains("Enter your 6-digit fund password."), "\(run)")
        }
    }

    /// A new account signed in in a new home.
    static func signUp(_ email: String, on server: Latchd, language: String) async throws -> (home: URL, run: LatchRun)
    {
        let home = server.folder.appendingPathComponent("home-\(email)")
        let run = try await latch(
            ["signup", email, "--password-stdin", "--accept-terms", "--code-from-outbox", "--lang", language],
            home: home, server: server, input: "Correct-Horse-9")
        return (home, run)
    }
}
