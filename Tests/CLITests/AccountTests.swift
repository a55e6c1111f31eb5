// Issue 12 §1 in the CLI: `latch account export` and `latch account delete` against a real latchd.
import Foundation
import LatchCore
import Testing

@Suite("latch account (issue 12 §1)", .serialized, .timeLimit(.minutes(10)))
struct AccountTests {
    @Test("test_12 latch account export prints the account's data as JSON, without secrets (en)")
    func test_12_exportPrintsJSONInEnglish() async throws { try await exportPrintsJSON(.en) }

    @Test("test_12 latch account export prints the account's data as JSON, without secrets (zh-Hans)")
    func test_12_exportPrintsJSONInChinese() async throws { try await exportPrintsJSON(.zhHans) }

    private func exportPrintsJSON(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("export@example.com")

            let export = try await j.latch(["account", "export"])

            #expect(export.status == 0, "\(export)")
            let document = try JSONDecoder().decode([String: JSONValue].self, from: Data(export.output.utf8))
            guard case .object(let user)? = document["user"] else {
                Issue.record("no user in \(export.output)")
                return
            }
            #expect(user["email"] == .string("export@example.com"))
            for key in ["sessions", "device_credentials", "known_devices", "factors", "security_events", "exported_at"]
            {
                #expect(document[key] != nil, "\(key) in the export")
            }
            #expect(!export.output.contains(Journey.password))
        }
    }

    @Test("test_12 latch account delete asks first: anything but yes keeps the account (exit 3) (en)")
    func test_12_deleteAsksFirstInEnglish() async throws { try await deleteAsksFirst(.en) }

    @Test("test_12 latch account delete asks first: anything but yes keeps the account (exit 3) (zh-Hans)")
    func test_12_deleteAsksFirstInChinese() async throws { try await deleteAsksFirst(.zhHans) }

    private func deleteAsksFirst(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("keep@example.com")

            let declined = try await j.latch(["account", "delete"], input: "no")

            #expect(declined.status == 3, "\(declined)")
            #expect(
                declined.all.contains(j.text("将永久注销账号 keep@example.com", "This deletes the account keep@example.com")),
                "\(declined)")
            #expect(
                declined.errors.contains(j.text("已取消，账号未注销", "Cancelled; the account was not deleted.")), "\(declined)")
            #expect(try await j.latch(["whoami"]).status == 0, "still signed in")
        }
    }

    @Test("test_12 latch account delete with confirmation deletes the account; the address can sign up again (en)")
    func test_12_deleteDeletesInEnglish() async throws { try await deleteDeletes(.en) }

    @Test("test_12 latch account delete with confirmation deletes the account; the address can sign up again (zh-Hans)")
    func test_12_deleteDeletesInChinese() async throws { try await deleteDeletes(.zhHans) }

    private func deleteDeletes(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("gone@example.com")
            try await j.signUp("gone-too@example.com", on: "laptop")

            let confirmed = try await j.latch(["account", "delete"], input: j.text("是", "yes"))
            let withYes = try await j.latch(["account", "delete", "--yes"], on: "laptop")

            for run in [confirmed, withYes] {
                #expect(run.status == 0, "\(run)")
                #expect(
                    run.output.contains(
                        j.text("账号已注销，所有设备均已退出登录", "The account was deleted and every device signed out.")), "\(run)")
            }
            let whoami = try await j.latch(["whoami"])
            #expect(whoami.status == 1, "signed out here: \(whoami)")
            let login = try await j.latch(["login", "gone@example.com", "--password-stdin"], input: Journey.password)
            #expect(login.status == 1, "the account is gone: \(login)")
            try await j.signUp("gone@example.com")
        }
    }
}
