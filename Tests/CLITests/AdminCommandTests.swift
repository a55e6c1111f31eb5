import Foundation
import LatchCore
import LatchTestSupport
import Testing

/// Issue 12 §2: `latchd admin …`, the break-glass console, run as the real binary beside a running
/// latchd on the same SQLite file, through the same service as the admin API, audited as `console`.
@Suite("latchd admin (issue 12 §2)")
struct AdminCommandTests {
    /// One run of `latchd admin ARGUMENTS` with the server's configuration.
    struct AdminRun: CustomStringConvertible {
        let status: Int32
        let output: String
        let errors: String

        /// The output as a JSON object (empty when it is not one), for the checks a typed decode cannot make.
        var json: [String: Any] {
            ((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]) ?? [:]
        }
        /// The output decoded as `type`, dates in ISO 8601 as the API's.
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try TestJSON.decoder().decode(T.self, from: Data(output.utf8))
        }
        var description: String { "→ \(status)\n--- stdout\n\(output)--- stderr\n\(errors)" }
    }

    static func admin(_ arguments: [String], server: Latchd, input: String? = nil) async throws -> AdminRun {
        let run = try await server.run(["admin"] + arguments, input: input)
        return AdminRun(status: run.status, output: run.output, errors: run.errors)
    }

    @Test(
        "12 §2 latchd admin finds, disables and enables a user on the server's database, audited as console; the CLI says the account is disabled"
    )
    func test_12_consoleDisablesAndEnablesAUser() async throws {
        try await journey(.en) { journey in
            try await journey.signUp("alice@example.com")

            let found = try await Self.admin(["find", "ALICE@"], server: journey.server)
            try #require(found.status == 0, "\(found)")
            let users = try #require((try? found.decode(PrintedUsers.self))?.users, "\(found)")
            #expect(users.count == 1 && users.first?.email == "alice@example.com")
            let id = try #require(users.first?.id)

            let disabled = try await Self.admin(["disable", id], server: journey.server)
            #expect(disabled.status == 0 && disabled.output == "ok\n", "\(disabled)")
            let shown = try await Self.admin(["show", id], server: journey.server)
            #expect((try? shown.decode(PrintedUser.self))?.user?.disabled == true, "\(shown)")

            let english = try await journey.latch(
                ["login", "alice@example.com", "--password-stdin"], on: "laptop", input: Journey.password)
            let chinese = try await CLITests.latch(
                ["login", "alice@example.com", "--password-stdin", "--lang", "zh-Hans"], home: journey.home("tablet"),
                server: journey.server, input: Journey.password)
            #expect(
                english.status == 1 && english.errors.contains("This account was disabled by an administrator"),
                "\(english)")
            #expect(chinese.status == 1 && chinese.errors.contains("该账号已被管理员停用"), "\(chinese)")

            let enabled = try await Self.admin(["enable", id], server: journey.server)
            #expect(enabled.status == 0, "\(enabled)")
            let again = try await journey.latch(
                ["login", "alice@example.com", "--password-stdin", "--code-from-outbox"], on: "laptop",
                input: Journey.password)
            #expect(again.status == 0, "\(again)")

            let audit = try await Self.admin(["audit"], server: journey.server)
            let entries = try #require((try? audit.decode(PrintedAudit.self))?.entries, "\(audit)")
            let actions = entries.map { "\($0.actor ?? "") \($0.action ?? "") \($0.target_user_id ?? "-")" }
            // Newest first; this listing's own entry is written after it read the log.
            #expect(
                actions.prefix(4) == [
                    "console enable \(id)", "console show_user \(id)", "console disable \(id)", "console find_users -"
                ], "\(actions)")
            #expect(entries.allSatisfy { $0.result == "ok" }, "\(audit)")
            // Untyped: `ip` is there and null (a console has no address), and a typed optional reads absent as nil too.
            #expect(
                (audit.json["entries"] as? [[String: Any]])?.allSatisfy { $0["ip"] is NSNull } == true, "\(audit)")
        }
    }

    @Test(
        "19 §2 §3 latchd admin freezes (the account refuses sign-in), unfreezes and lifts a hold, audited as console"
    )
    func test_19_consoleFreezesUnfreezesAndLiftsAHold() async throws {
        try await journey(.en) { journey in
            try await journey.signUp("alice@example.com")
            let found = try await Self.admin(["find", "alice@"], server: journey.server)
            let id = try #require((try? found.decode(PrintedUsers.self))?.users?.first?.id, "\(found)")

            let frozen = try await Self.admin(["freeze", id], server: journey.server)
            let shown = try await Self.admin(["show", id], server: journey.server)
            let login = try await journey.latch(
                ["login", "alice@example.com", "--password-stdin", "--code-from-outbox"], on: "laptop",
                input: Journey.password)
            let unfrozen = try await Self.admin(["unfreeze", id], server: journey.server)
            let lifted = try await Self.admin(["lift-hold", id], server: journey.server)
            let after = try await Self.admin(["show", id], server: journey.server)

            #expect(frozen.status == 0 && frozen.output == "ok\n", "\(frozen)")
            let shownUser = try? shown.decode(PrintedUser.self)
            #expect(shownUser?.frozen_by == "operator" && shownUser?.frozen_at != nil, "\(shown)")
            #expect(login.status != 0, "a frozen account does not sign in: \(login)")
            #expect(unfrozen.status == 0 && lifted.status == 0, "\(unfrozen) \(lifted)")
            // Untyped `frozen_at`: there and null (unfrozen), and a typed optional reads absent as nil too.
            #expect(
                after.json["frozen_at"] is NSNull && (try? after.decode(PrintedUser.self))?.holds?.isEmpty == true,
                "\(after)")
            let audit = try await Self.admin(["audit"], server: journey.server)
            let actions = ((try? audit.decode(PrintedAudit.self))?.entries ?? []).compactMap(\.action)
            for action in ["freeze", "unfreeze", "lift_hold"] {
                #expect(actions.contains(action), "\(action) audited: \(actions)")
            }
        }
    }

    @Test(
        "12 §2 latchd admin: an unknown user exits 1 naming NOT_FOUND, a wrong command line exits 2 with the usage (issue 22 §3: ArgumentParser's)"
    )
    func test_12_consoleRefusals() async throws {
        try await withLatchd { server in
            let unknown = try await Self.admin(["unlock", UUID().uuidString], server: server)
            let noID = try await Self.admin(["disable"], server: server)
            let unknownCommand = try await Self.admin(["explode", "x"], server: server)

            #expect(unknown.status == 1 && unknown.errors.contains("NOT_FOUND"), "\(unknown)")
            #expect(noID.status == 2 && noID.errors.contains("Usage: latchd admin disable <id>"), "\(noID)")
            #expect(unknownCommand.status == 2 && unknownCommand.errors.contains("explode"), "\(unknownCommand)")
            #expect(noID.output.isEmpty && unknownCommand.output.isEmpty, "usage errors go to stderr")
        }
    }

    @Test(
        "review_10 latchd admin delete: the usage says what it does; it asks first (anything but yes, or no input, keeps the account, exit 3); --yes deletes"
    )
    func test_20_10_consoleDeleteAsksFirst() async throws {
        try await journey(.en) { journey in
            try await journey.signUp("alice@example.com")
            let found = try await Self.admin(["find", "alice@"], server: journey.server)
            let id = try #require((try? found.decode(PrintedUsers.self))?.users?.first?.id, "\(found)")

            let usage = try await Self.admin(["delete", "--help"], server: journey.server)
            let noInput = try await Self.admin(["delete", id], server: journey.server)
            let no = try await Self.admin(["delete", id], server: journey.server, input: "no\n")
            let stillThere = try await Self.admin(["show", id], server: journey.server)
            let yes = try await Self.admin(["delete", id], server: journey.server, input: "yes\n")
            let again = try await Self.admin(["delete", "--yes", id], server: journey.server)

            #expect(
                usage.status == 0 && usage.output.contains("latchd admin delete <id> [--yes]")
                    && usage.output.contains("Delete the account for good"), "\(usage)")
            #expect(!usage.output.contains("not available"), "the usage tells the truth")
            for refused in [noInput, no] {
                #expect(refused.status == 3 && refused.errors.contains("not deleted"), "\(refused)")
            }
            #expect(stillThere.status == 0, "\(stillThere)")
            #expect(yes.status == 0 && yes.output == "ok\n", "\(yes)")
            #expect(
                again.status == 1 && again.errors.contains("NOT_FOUND"), "--yes asks nothing; gone already: \(again)")
        }
    }
}

/// What `latchd admin find` prints, as far as the tests read it.
private struct PrintedUsers: Decodable {
    struct User: Decodable {
        var id: String?
        var email: String?
        var disabled: Bool?
    }
    var users: [User]?
}

/// What `latchd admin show ID` prints, as far as the tests read it; the holds in LatchCore's wire type.
private struct PrintedUser: Decodable {
    var user: PrintedUsers.User?
    var frozen_at: String?
    var frozen_by: String?
    var holds: [SecurityHoldInfo]?
}

/// What `latchd admin audit` prints, as far as the tests read it.
private struct PrintedAudit: Decodable {
    struct Entry: Decodable {
        var actor: String?
        var action: String?
        var target_user_id: String?
        var result: String?
    }
    var entries: [Entry]?
}
