import FluentKit
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

/// Issue 12 §1: `DELETE /v1/me` erases the person's data, keeps a tombstone, kills every token at once
/// (on every instance), frees the address and number, and mails the owner a last time.
@Suite("Account deletion (issue 12 §1)")
struct AccountDeletionTests {
    /// `DELETE /v1/me`, with a body when a verification token is given.
    static func deleteAccount(
        _ server: TestServer, bearer: String, verificationToken: String? = nil, language: String? = nil
    )
        async throws -> TestResponse
    {
        let headers = language.map { [("Accept-Language", $0)] } ?? []
        if let verificationToken {
            return try await server.send(
                .DELETE, "/v1/me", json: ["verification_token": verificationToken], bearer: bearer, headers: headers)
        }
        return try await server.send(.DELETE, "/v1/me", bearer: bearer, headers: headers)
    }

    /// Runs one SQL query on the server's database.
    static func rows(_ server: TestServer, _ query: SQLQueryString) async throws -> [any SQLRow] {
        try await (server.app.db as! any SQLDatabase).raw(query).all()
    }

    static func count(_ server: TestServer, _ table: String, userID: String) async throws -> Int {
        let rows = try await Self.rows(
            server, "SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: UUID(uuidString: userID)!)")
        return try rows[0].decode(column: "n", as: Int.self)
    }

    @Test(
        "test_12 deletion erases the person's data, keeps a tombstone and the security events, and every token dies",
        arguments: TestDatabase.all)
    func test_12_deletionErasesDataKeepsTombstone(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let phone = try await server.signInConfirmingNewDevice(device: ["id": "phone-2", "name": "Alice's Phone"])
            try await server.setFundPassword(bearer: alice.accessToken)
            _ = try await server.activateTOTP(bearer: alice.accessToken)
            _ = try await server.bindDevice(DeviceKey(), bearer: alice.accessToken)
            let nickname = try await server.send(
                .PATCH, "/v1/me", json: ["nickname": "Alice Liddell"], bearer: alice.accessToken)
            try #require(nickname.status == 200)
            let userID = alice.user.id

            let deleted = try await Self.deleteAccount(server, bearer: alice.accessToken)

            #expect(deleted.status == 200, "\(deleted.text)")
            #expect((try? deleted.decode(AccountDeleted.self))?.appleRevocation == .notLinked, "\(deleted.text)")
            for tokens in [alice, phone] {
                let me = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
                #expect(me.status == 401 && me.errorCode == "AUTH_004", "\(me.text)")
                #expect(try await server.refresh(tokens.refreshToken).errorCode == "AUTH_004")
            }

            let user = try #require(
                try await Self.rows(server, "SELECT * FROM users WHERE id = \(bind: UUID(uuidString: userID)!)").first)
            #expect(try user.decode(column: "deleted_at", as: Double?.self) == server.clock.now.timeIntervalSince1970)
            #expect(try user.decode(column: "email", as: String?.self) == nil)
            #expect(try user.decode(column: "password_hash", as: String?.self) == nil)
            #expect(try user.decode(column: "nickname", as: String?.self) == nil)
            for table in [
                "identities", "device_credentials", "known_devices", "totp_credentials", "recovery_codes",
                "fund_passwords",
                "verifications", "verification_tokens", "login_challenges"
            ] {
                #expect(try await Self.count(server, table, userID: userID) == 0, "\(table) is erased")
            }
            let sessions = try await Self.rows(
                server, "SELECT * FROM sessions WHERE user_id = \(bind: UUID(uuidString: userID)!)")
            #expect(sessions.count == 2)
            for session in sessions {
                #expect(try session.decode(column: "revoked_at", as: Double?.self) != nil)
                for column in ["ip", "device_id", "device_name", "device_model", "platform"] {
                    #expect(try session.decode(column: column, as: String?.self) == nil, "sessions.\(column) is erased")
                }
            }
            let refreshTokens = try await Self.rows(
                server,
                """
                SELECT COUNT(*) AS n FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = \(bind: UUID(uuidString: userID)!))
                """)
            #expect(try refreshTokens[0].decode(column: "n", as: Int.self) == 0)
            let budgets = try await Self.rows(server, "SELECT key FROM guess_budgets").map {
                try $0.decode(column: "key", as: String.self)
            }
            #expect(!budgets.contains { $0.contains(userID) || $0.contains("alice@example.com") }, "\(budgets)")
            let events = try await Self.rows(
                server, "SELECT type FROM security_events WHERE user_id = \(bind: UUID(uuidString: userID)!)"
            )
            .map { try $0.decode(column: "type", as: String.self) }
            #expect(
                events.contains("registered") && events.contains("account_deleted"),
                "the events still point at the tombstone")
            let signIn = try await server.signIn()
            #expect(signIn.status == 401 && signIn.errorCode == "AUTH_001", "the password is gone: \(signIn.text)")
        }
    }

    @Test(
        "test_12 the owner gets a last mail, in the request's language, and the address can register again",
        arguments: TestDatabase.all)
    func test_12_lastMailAndReRegistration(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")

            #expect(try await Self.deleteAccount(server, bearer: alice.accessToken).status == 200)
            #expect(try await Self.deleteAccount(server, bearer: bob.accessToken, language: "zh-Hans").status == 200)

            let aliceMail = try #require(await server.mails(to: "alice@example.com").last)
            #expect(aliceMail.subject == "Your Latch account was deleted" && aliceMail.code == nil)
            #expect(aliceMail.body.contains("deleted"))
            let bobMail = try #require(await server.mails(to: "bob@example.com").last)
            #expect(bobMail.subject == "你的 Latch 账号已注销")
            let again = try await server.signUp()
            #expect(again.user.id != alice.user.id, "a new account, not the tombstone")
            #expect(again.user.email == "alice@example.com")
            #expect(try await server.send(.GET, "/v1/me", bearer: again.accessToken).status == 200)
        }
    }

    @Test(
        "test_12 a phone number of a deleted account signs up again as a new account, even if a racing link left it on the tombstone",
        arguments: TestDatabase.all)
    func test_12_phoneCanRegisterAgain(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let phone = "+8613800138000"
            func smsSignIn() async throws -> TokenResponse {
                let sent = try await server.send(.POST, "/v1/sms/codes", json: ["phone": phone])
                try #require(sent.status == 202, "\(sent.text)")
                let code = try #require(await server.app.latch.outbox?.messages(to: phone).last?.code)
                let answer = try await server.send(
                    .POST, "/v1/token", json: ["grant_type": "sms_code", "phone": phone, "code": code])
                try #require(answer.status == 200, "\(answer.text)")
                return try answer.decode(TokenResponse.self)
            }
            let first = try await smsSignIn()
            #expect(try await Self.deleteAccount(server, bearer: first.accessToken).status == 200)
            server.clock.advance(by: 61)
            // A link that raced the deletion (its session checked just before) may leave the number on
            // the tombstone: it must not keep the number from signing up again.
            _ = try await Self.rows(
                server,
                """
                INSERT INTO identities (id, user_id, provider, subject, created_at)
                VALUES (\(bind: UUID()), \(bind: UUID(uuidString: first.user.id)!), 'phone', \(bind: phone), \(bind: 0.0))
                """)

            let second = try await smsSignIn()

            #expect(second.user.id != first.user.id)
            let me = try await server.send(.GET, "/v1/me", bearer: second.accessToken)
            #expect((try? me.decode(UserInfo.self))?.identities?.first?.identifier == phone, "\(me.text)")
        }
    }

    @Test(
        "test_12 deletion needs a sign-in within 10 minutes or a verification token for delete_account",
        arguments: TestDatabase.all)
    func test_12_deletionNeedsRecentSignInOrVerification(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            try await server.setFundPassword(bearer: alice.accessToken)
            server.clock.advance(by: 601)

            let refused = try await Self.deleteAccount(server, bearer: alice.accessToken)
            let wrongAction = try await server.verificationToken(
                "unbind_device", parameters: [:], bearer: alice.accessToken)
            let withWrongToken = try await Self.deleteAccount(
                server, bearer: alice.accessToken, verificationToken: wrongAction)
            let proof = try await server.verificationToken("delete_account", parameters: [:], bearer: alice.accessToken)
            let accepted = try await Self.deleteAccount(server, bearer: alice.accessToken, verificationToken: proof)

            #expect(refused.status == 403 && refused.errorCode == "VERIFICATION_REQUIRED", "\(refused.text)")
            #expect(withWrongToken.status != 200, "\(withWrongToken.text)")
            #expect(accepted.status == 200, "\(accepted.text)")
            #expect(try await server.send(.GET, "/v1/me", bearer: alice.accessToken).status == 401)
            #expect(
                try await Self.deleteAccount(server, bearer: alice.accessToken).errorCode == "AUTH_004",
                "a second delete: the session is gone")
        }
    }

    @Test("test_12 deletion racing refreshes and a sign-in: no token survives", arguments: TestDatabase.all)
    func test_12_deletionRacingRefreshLeavesNoToken(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let others = [
                try await server.signInConfirmingNewDevice(device: ["id": "device-b"]),
                try await server.signInConfirmingNewDevice(device: ["id": "device-c"])
            ]

            // Refreshes of every session and a password sign-in, all racing the deletion. Two refreshes of
            // a token: a rotation and its one grace answer. A third would be a replay, which ends the
            // session by itself (C6), and the deletion would then rightly answer 401 if it came later.
            let answers = try await withThrowingTaskGroup(of: (String, TestResponse).self) { group in
                group.addTask { ("delete", try await Self.deleteAccount(server, bearer: alice.accessToken)) }
                for tokens in [alice] + others {
                    for _ in 0..<2 { group.addTask { ("refresh", try await server.refresh(tokens.refreshToken)) } }
                }
                group.addTask { ("sign-in", try await server.signIn()) }
                return try await group.reduce(into: [(String, TestResponse)]()) { $0.append($1) }
            }

            let deletion = try #require(answers.first { $0.0 == "delete" }?.1)
            #expect(deletion.status == 200, "\(deletion.text)")
            #expect(answers.allSatisfy { $0.1.status < 500 }, "\(answers.map(\.1.text))")
            var survivors: [TokenResponse] = [alice] + others
            for (kind, answer) in answers where kind != "delete" && answer.status == 200 {
                survivors.append(try answer.decode(TokenResponse.self))
            }
            for tokens in survivors {
                let me = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
                #expect(me.status == 401 && me.errorCode == "AUTH_004", "an access token survived: \(me.text)")
                let refreshed = try await server.refresh(tokens.refreshToken)
                #expect(
                    refreshed.status == 401 && refreshed.errorCode == "AUTH_004",
                    "a refresh token survived: \(refreshed.text)")
            }
            let live = try await Self.rows(
                server,
                """
                SELECT COUNT(*) AS n FROM sessions WHERE user_id = \(bind: UUID(uuidString: alice.user.id)!) AND revoked_at IS NULL
                """)
            #expect(try live[0].decode(column: "n", as: Int.self) == 0)
        }
    }

    /// PostgreSQL only: there another latchd hears the revocation at once (SQLite's bound is the 5 s recheck).
    static let postgresOnly = TestDatabase.all.filter { if case .postgres = $0 { true } else { false } }

    @Test(
        "test_12 a deleted account's access token is refused by another latchd on the same PostgreSQL through NOTIFY, not the recheck",
        arguments: postgresOnly)
    func test_12_deletionReachesOtherInstanceAtOnce(database: TestDatabase) async throws {
        let clock = TestClock()
        let a = try await TestServer.start(database, clock: clock)
        let b = try await TestServer.start(database, clock: clock, sharing: a.location)
        do {
            #expect(try await SessionTests.listeners(of: a) == 2)
            let alice = try await a.signUp()
            try #require(
                try await b.send(.GET, "/v1/me", bearer: alice.accessToken).status == 200, "B holds the session as live"
            )

            try #require(try await Self.deleteAccount(a, bearer: alice.accessToken).status == 200)
            // The test clock stands still, so B's 5 s recheck cannot be what refuses it: only the
            // notification can. How soon depends on the machine's load (issue 22 §8), not asserted.
            let refused = try await eventually(every: .milliseconds(10)) {
                try await b.send(.GET, "/v1/me", bearer: alice.accessToken).errorCode == "AUTH_004"
            }
            #expect(refused, "B never refused the deleted account's token")
        } catch {
            try? await a.stop()
            try? await b.stop()
            throw error
        }
        try await a.stop()
        try await b.stop()
    }
}
