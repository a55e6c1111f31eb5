import FluentKit
import FluentPostgresDriver
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// C2 email registration through the real HTTP stack: a normalised address, a mailed 6-digit code
/// with 5 tries and 10 minutes, one send a minute, no disclosure of existing accounts, and policy
/// checks that name the field.
@Suite("Registration (C2)")
struct RegistrationTests {
    @Test("C2 the email is trimmed and lower-cased, and the mailed code has 6 digits", arguments: TestDatabase.all)
    func C2_emailNormalisedAndSixDigitCode(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let registered = try await server.register(" Alice@Example.COM ")

            #expect(registered.status == 202, "\(registered.text)")
            let accepted = try? registered.decode(RegistrationAccepted.self)
            #expect(accepted?.registrationId.isEmpty == false)
            #expect(accepted?.expiresIn == 600)
            let mails = await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []
            #expect(mails.count == 1)
            let code = try await server.latestCode(to: "alice@example.com")
            #expect(code.count == 6 && code.allSatisfy { $0.isASCII && $0.isNumber }, "code \(code)")
            #expect(mails.first?.body.contains(code) == true, "the mail itself carries the code")
        }
    }

    @Test(
        "C2 verifying the code creates a verified account with its nickname and signs it in",
        arguments: TestDatabase.all)
    func C2_verifyCreatesAccountAndSignsIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let registered = try await server.register(" Alice@Example.COM ", nickname: "  Alice  ")
            let id = try registered.decode(RegistrationAccepted.self).registrationId
            let code = try await server.latestCode(to: "alice@example.com")

            let verified = try await server.send(
                .POST, "/v1/registrations/\(id)/verify",
                json: ["code": code, "device": TestServer.testDevice] as [String: Any])

            #expect(verified.status == 201, "\(verified.text)")
            let tokens = try verified.decode(TokenResponse.self)
            #expect(tokens.tokenType == "Bearer" && tokens.expiresIn == 7200)
            #expect(!tokens.refreshToken.isEmpty && !tokens.sessionId.isEmpty)
            #expect(tokens.user.email == "alice@example.com")
            #expect(tokens.user.emailVerified)
            #expect(tokens.user.nickname == "Alice")
            #expect(verified.text.contains("\"email_verified\":true"))
            let me = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
            #expect(me.status == 200 && (try? me.decode(UserInfo.self))?.email == "alice@example.com")
            #expect(try await server.signIn(" ALICE@example.com").status == 200, "the new password signs in")
        }
    }

    @Test("C2 a wrong code counts down 4, 3, 2, 1, 0 and then even the right code fails", arguments: TestDatabase.all)
    func C2_wrongCodeCountsDownThenCodeIsDead(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let registered = try await server.register("alice@example.com")
            let id = try registered.decode(RegistrationAccepted.self).registrationId
            let code = try await server.latestCode(to: "alice@example.com")
            let wrong = Self.code(differentFrom: code)

            for remaining in [4, 3, 2, 1, 0] {
                let attempt = try await server.send(.POST, "/v1/registrations/\(id)/verify", json: ["code": wrong])
                #expect(attempt.status == 400 && attempt.errorCode == "AUTH_003", "\(attempt.text)")
                #expect(attempt.errorBody?.attemptsRemaining == remaining)
            }
            let right = try await server.send(.POST, "/v1/registrations/\(id)/verify", json: ["code": code])

            #expect(right.status == 400 && right.errorCode == "AUTH_003", "\(right.text)")
            #expect(right.errorBody?.attemptsRemaining == 0)
            #expect(try await server.signIn().errorCode == "AUTH_001", "no account was created")
        }
    }

    @Test("C2 the code lives 10 minutes: accepted at 599 s, refused at 601 s", arguments: TestDatabase.all)
    func C2_codeExpiresAfterTenMinutes(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let bob = try await server.register("bob@example.com").decode(RegistrationAccepted.self).registrationId
            let alice = try await server.register("alice@example.com").decode(RegistrationAccepted.self).registrationId
            let bobCode = try await server.latestCode(to: "bob@example.com")
            let aliceCode = try await server.latestCode(to: "alice@example.com")

            server.clock.advance(by: 599)
            let inTime = try await server.send(.POST, "/v1/registrations/\(bob)/verify", json: ["code": bobCode])
            server.clock.advance(by: 2)
            let late = try await server.send(.POST, "/v1/registrations/\(alice)/verify", json: ["code": aliceCode])

            #expect(inTime.status == 201, "\(inTime.text)")
            #expect(late.status == 400 && late.errorCode == "AUTH_003", "\(late.text)")
        }
    }

    @Test(
        "C2 a second registration within 60 s is rate limited; after 60 s a new code replaces the old one",
        arguments: TestDatabase.all)
    func C2_resendIsRateLimitedAndReplacesOldCode(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.register("alice@example.com")
            let firstID = try first.decode(RegistrationAccepted.self).registrationId

            server.clock.advance(by: 10)
            let tooSoon = try await server.register("alice@example.com")
            server.clock.advance(by: 50)
            let second = try await server.register("alice@example.com")

            #expect(tooSoon.status == 429 && tooSoon.errorCode == "RATE_LIMITED", "\(tooSoon.text)")
            #expect(tooSoon.errorBody?.retryAfter == 50)
            #expect(tooSoon.headers.first(name: "Retry-After") == "50")
            #expect(second.status == 202, "\(second.text)")
            let secondID = try second.decode(RegistrationAccepted.self).registrationId
            #expect(secondID != firstID)
            let codes = (await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []).compactMap(\.code)
            #expect(codes.count == 2, "one code per accepted registration, none for the refused one")
            let newCode = try await server.latestCode(to: "alice@example.com")
            let oldID = try await server.send(.POST, "/v1/registrations/\(firstID)/verify", json: ["code": newCode])
            #expect(
                oldID.status == 400 && oldID.errorCode == "AUTH_003", "the old registration id is gone: \(oldID.text)")
            let newID = try await server.send(.POST, "/v1/registrations/\(secondID)/verify", json: ["code": newCode])
            #expect(newID.status == 201, "\(newID.text)")
        }
    }

    @Test("C2 ten simultaneous registrations of one address send exactly one code", arguments: TestDatabase.all)
    func C2_concurrentRegistrationsSendOneCode(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<10 { group.addTask { try await server.register("alice@example.com").status } }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == 202 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 9, "\(statuses)")
            let codes = (await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []).compactMap(\.code)
            #expect(codes.count == 1)
        }
    }

    @Test("C2 one code verified five times at once creates exactly one account", arguments: TestDatabase.all)
    func C2_concurrentVerifiesCreateOneAccount(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let registered = try await server.register("alice@example.com")
            let id = try registered.decode(RegistrationAccepted.self).registrationId
            let code = try await server.latestCode(to: "alice@example.com")

            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try await server.send(.POST, "/v1/registrations/\(id)/verify", json: ["code": code])
                    }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }

            #expect(responses.filter { $0.status == 201 }.count == 1, "\(responses.map(\.status))")
            #expect(
                responses.filter { $0.status == 400 && $0.errorCode == "AUTH_003" }.count == 4,
                "\(responses.map(\.text))")
        }
    }

    @Test(
        "C11 registering an existing address answers the same, mails a warning instead of a code, and changes nothing",
        arguments: TestDatabase.all)
    func C11_registrationOfExistingAccountRevealsAndChangesNothing(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let original = try await server.signUp("alice@example.com", password: "Correct-Horse-9")
            let fresh = try await server.register("bob@example.com")

            let again = try await server.register("alice@example.com", password: "Attacker-Pass-8", nickname: "Mallory")

            #expect(again.status == fresh.status)
            // Untyped: the same keys, no more and no fewer; a typed decode sees only the keys it names.
            #expect(Set(again.json.keys) == Set(fresh.json.keys))
            #expect(
                (try? again.decode(RegistrationAccepted.self))?.expiresIn
                    == (try? fresh.decode(RegistrationAccepted.self))?.expiresIn)
            let id = try again.decode(RegistrationAccepted.self).registrationId
            let mails = await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []
            #expect(mails.count == 2, "the sign-up code and one warning")
            let warning = try #require(mails.last)
            #expect(warning.code == nil && warning.subject.contains("Someone tried to sign up"), "\(warning.subject)")
            #expect(mails.compactMap(\.code).count == 1, "no code for the second registration")
            for guess in ["000000", "123456", "999999"] {
                let attempt = try await server.send(.POST, "/v1/registrations/\(id)/verify", json: ["code": guess])
                #expect(attempt.status == 400 && attempt.errorCode == "AUTH_003")
            }
            #expect(
                try await server.signIn(password: "Correct-Horse-9").status == 200,
                "the account's password is untouched")
            #expect(try await server.signIn(password: "Attacker-Pass-8").errorCode == "AUTH_001")
            let me = try await server.send(.GET, "/v1/me", bearer: original.accessToken)
            // Untyped `nickname`: absent, and a typed optional reads present-and-null as nil too.
            #expect(
                me.status == 200 && (try? me.decode(UserInfo.self))?.id == original.user.id
                    && me.json["nickname"] == nil)
        }
    }

    @Test("C11 even the right code cannot complete a registration of an existing address", arguments: TestDatabase.all)
    func C11_rightCodeForExistingAccountStillFails(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let original = try await server.signUp("alice@example.com", password: "Correct-Horse-9")
            server.clock.advance(by: 60)
            #expect(try await server.register("alice@example.com", password: "Attacker-Pass-8").status == 202)
            // The warning-only registration's code is never sent. To play an attacker who guessed it,
            // move a pending registration whose code we know (Bob's) onto Alice's address.
            let bob = try await server.register("bob@example.com", password: "Attacker-Pass-8")
            let bobID = try bob.decode(RegistrationAccepted.self).registrationId
            let bobCode = try await server.latestCode(to: "bob@example.com")
            let sql = try #require(server.app.db as? any SQLDatabase)
            try await sql.raw("DELETE FROM email_codes WHERE purpose = 'registration' AND email = 'alice@example.com'")
                .run()
            try await sql.raw("UPDATE email_codes SET email = 'alice@example.com' WHERE email = 'bob@example.com'")
                .run()

            let verified = try await server.send(.POST, "/v1/registrations/\(bobID)/verify", json: ["code": bobCode])

            #expect(verified.status == 400 && verified.errorCode == "AUTH_003", "\(verified.text)")
            #expect(try await server.signIn(password: "Correct-Horse-9").status == 200)
            #expect(try await server.signIn(password: "Attacker-Pass-8").errorCode == "AUTH_001")
            #expect(
                try await server.signIn("bob@example.com", password: "Attacker-Pass-8").errorCode == "AUTH_001",
                "no account at all")
            let me = try await server.send(.GET, "/v1/me", bearer: original.accessToken)
            #expect((try? me.decode(UserInfo.self))?.id == original.user.id)
        }
    }

    @Test("C2 terms must be accepted: 422 naming terms_accepted", arguments: TestDatabase.all)
    func C2_termsMustBeAccepted(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let refused = try await server.register("alice@example.com", termsAccepted: false)

            #expect(refused.status == 422 && refused.errorCode == "VALIDATION_FAILED", "\(refused.text)")
            #expect(refused.errorBody?.field == "terms_accepted")
            #expect((await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []).isEmpty)
        }
    }

    @Test(
        "C3 a weak or common password is refused with 422 naming password and the broken rules",
        arguments: TestDatabase.all)
    func C3_weakPasswordRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let cases: [(password: String, reason: String)] = [
                ("Password1", "common"), ("Ab1", "too_short"), ("alllowercase1", "missing_uppercase"),
                ("ALLUPPERCASE1", "missing_lowercase"), ("NoDigitsHere", "missing_digit"),
                (String(repeating: "Ab1", count: 43), "too_long")
            ]
            for (password, reason) in cases {
                let refused = try await server.register("alice@example.com", password: password)

                #expect(
                    refused.status == 422 && refused.errorCode == "VALIDATION_FAILED", "\(password): \(refused.text)")
                #expect(refused.errorBody?.field == "password")
                #expect((refused.errorBody?.reasons)?.contains(reason) == true, "\(password): \(refused.text)")
            }
            #expect((await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []).isEmpty)
        }
    }

    @Test("C2 an implausible email is refused with 422 naming email", arguments: TestDatabase.all)
    func C2_invalidEmailRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for email in [
                "", "   ", "alice", "alice@", "@example.com", "alice@example", "alice@@example.com",
                "al ice@example.com", "alice@exa_mple.com", "アリス@example.com"
            ] {
                let refused = try await server.register(email)

                #expect(refused.status == 422 && refused.errorCode == "VALIDATION_FAILED", "\(email): \(refused.text)")
                #expect(refused.errorBody?.field == "email", "\(email)")
            }
            #expect((await server.app.latch.outbox?.messages(to: nil) ?? []).isEmpty)
        }
    }

    @Test("C11 a wrong code says 验证码错误 in Chinese and explains itself in English", arguments: TestDatabase.all)
    func C11_wrongCodeMessageInBothLanguages(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let registered = try await server.register("alice@example.com")
            let id = try registered.decode(RegistrationAccepted.self).registrationId
            let wrong = Self.code(differentFrom: try await server.latestCode(to: "alice@example.com"))

            let chinese = try await server.send(
                .POST, "/v1/registrations/\(id)/verify", json: ["code": wrong], headers: [("Accept-Language", "zh-CN")])
            let english = try await server.send(.POST, "/v1/registrations/\(id)/verify", json: ["code": wrong])

            #expect(chinese.errorCode == "AUTH_003" && chinese.errorBody?.message == "验证码错误", "\(chinese.text)")
            #expect(english.errorCode == "AUTH_003")
            #expect(english.errorBody?.message == LatchErrorCode.wrongCode.message(in: .en))
        }
    }

    /// A well-formed code that is not `code`.
    static func code(differentFrom code: String) -> String { code == "000000" ? "000001" : "000000" }
}

extension TestServer {
    /// `POST /v1/registrations` with the given fields.
    fileprivate func register(
        _ email: String, password: String = "Correct-Horse-9", nickname: String? = nil, termsAccepted: Bool = true
    ) async throws -> TestResponse {
        var body: [String: Any] = ["email": email, "password": password, "terms_accepted": termsAccepted]
        if let nickname { body["nickname"] = nickname }
        return try await send(.POST, "/v1/registrations", json: body)
    }
}
