import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 10 §1: every guessable secret has a failure budget per target that nothing but time gives
/// back — not a resend, a new challenge, a new code or a right password.
@Suite("Failure budgets (issue 10 §1)")
struct GuessBudgetTests {
    static let alice = "alice@example.com"
    static let phone = "+8613800138000"

    static func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

    static func forgot(_ server: TestServer, _ email: String = alice) async throws -> TestResponse {
        try await server.send(.POST, "/v1/password/forgot", json: ["email": email])
    }

    static func reset(_ server: TestServer, code: String, _ email: String = alice) async throws -> TestResponse {
        try await server.send(
            .POST, "/v1/password/reset", json: ["email": email, "code": code, "new_password": "Brand-New-Pass-7"])
    }

    static func isCodesLockedNotice(_ message: OutgoingMessage) -> Bool {
        message.subject.contains("too many wrong codes") || message.subject.contains("验证码错误次数过多")
    }

    static func lockedUntil(_ answer: TestResponse) throws -> Date {
        try #require(answer.errorBody?.lockedUntil, "\(answer.text)")
    }

    @Test(
        "10 a resend does not renew reset-code guesses: the 10th wrong one locks the address, mails once, and a fresh code works after the window",
        arguments: TestDatabase.all)
    func test_10_1_resetCodeBudgetSurvivesResends(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let start = server.clock.now
            var answers: [TestResponse] = []
            for _ in 0..<2 {
                #expect(try await Self.forgot(server).status == 202)
                let code = try await server.latestCode(to: Self.alice)
                for _ in 0..<5 { answers.append(try await Self.reset(server, code: Self.wrong(code))) }
                server.clock.advance(by: 61)
            }
            _ = try await Self.forgot(server)
            let rightWhileLocked = try await Self.reset(server, code: try await server.latestCode(to: Self.alice))

            #expect(answers.prefix(9).allSatisfy { $0.status == 400 && $0.errorCode == "AUTH_003" })
            #expect(answers.prefix(9).map { $0.errorBody?.attemptsRemaining } == [4, 3, 2, 1, 0, 4, 3, 2, 1])
            #expect(answers[9].status == 423 && answers[9].errorCode == "AUTH_002", "\(answers[9].text)")
            #expect(
                try Self.lockedUntil(answers[9]) == start.addingTimeInterval(GuessBudget.day),
                "locked until the window ends")
            #expect(
                rightWhileLocked.status == 423, "even the right code waits for the window: \(rightWhileLocked.text)")
            #expect(await server.mails().filter(Self.isCodesLockedNotice).count == 1, "the owner is mailed once")

            server.clock.advance(by: GuessBudget.day)
            _ = try await Self.forgot(server)
            let afterWindow = try await Self.reset(server, code: try await server.latestCode(to: Self.alice))
            #expect(afterWindow.status == 204, "a fresh code works once the lock has passed: \(afterWindow.text)")
        }
    }

    @Test(
        "10 a known password does not buy fresh guesses: every new-device challenge draws on one budget",
        arguments: TestDatabase.all)
    func test_10_1_signInChallengesShareOneBudget(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            _ = try await server.signIn(device: ["id": "phone-1"])
            var answers: [TestResponse] = []
            for round in 0..<2 {
                let challenged = try await server.signIn(device: ["id": "laptop-\(round)"])
                try #require(challenged.status == 403, "\(challenged.text)")
                let challengeID = try #require(challenged.errorBody?.challengeId)
                let code = try await server.latestCode(to: Self.alice)
                for _ in 0..<5 {
                    answers.append(
                        try await NewDeviceTests.loginChallenge(
                            server, challengeID: challengeID, code: Self.wrong(code)))
                }
                server.clock.advance(by: 61)
            }
            let third = try await server.signIn(device: ["id": "laptop-9"])
            let thirdID = try #require(
                third.errorBody?.challengeId, "a right password still opens a challenge: \(third.text)")
            let right = try await NewDeviceTests.loginChallenge(
                server, challengeID: thirdID, code: try await server.latestCode(to: Self.alice))

            #expect(answers.prefix(9).allSatisfy { $0.status == 400 }, "\(answers.map(\.status))")
            #expect(answers[5].errorBody?.attemptsRemaining == 4)
            #expect(
                answers[9].status == 423 && answers[9].errorCode == "AUTH_002",
                "the 10th wrong code: \(answers[9].text)")
            #expect(right.status == 423, "a new challenge's right code waits for the window too: \(right.text)")
            #expect(await server.mails().filter(Self.isCodesLockedNotice).count == 1)
        }
    }

    @Test("10 made-up SMS codes for a number with no live code cost its owner nothing", arguments: TestDatabase.all)
    func test_10_1_guessesWithoutLiveCodeAreFree(database: TestDatabase) async throws {
        try await withServer(database) { server in
            var answers: [TestResponse] = []
            for _ in 0..<20 { answers.append(try await PhoneSignInTests.smsSignIn(server, code: "123456")) }
            _ = try await PhoneSignInTests.requestCode(server)
            let owner = try await PhoneSignInTests.smsSignIn(
                server, code: try await PhoneSignInTests.textedCode(server))

            #expect(answers.allSatisfy { $0.status == 400 && $0.errorBody?.attemptsRemaining == 0 })
            #expect(owner.status == 200, "the owner's code still works: \(owner.text)")
        }
    }

    @Test(
        "10 ten wrong SMS codes a day lock the number across resends (423) and text it once",
        arguments: TestDatabase.all)
    func test_10_1_smsBudgetSurvivesResends(database: TestDatabase) async throws {
        try await withServer(database) { server in
            var answers: [TestResponse] = []
            for _ in 0..<2 {
                _ = try await PhoneSignInTests.requestCode(server)
                let code = try await PhoneSignInTests.textedCode(server)
                for _ in 0..<5 { answers.append(try await PhoneSignInTests.smsSignIn(server, code: Self.wrong(code))) }
                server.clock.advance(by: 61)
            }
            _ = try await PhoneSignInTests.requestCode(server)
            let rightWhileLocked = try await PhoneSignInTests.smsSignIn(
                server, code: try await PhoneSignInTests.textedCode(server))

            #expect(answers.prefix(9).allSatisfy { $0.status == 400 })
            #expect(answers[9].status == 423 && answers[9].errorCode == "AUTH_002", "\(answers[9].text)")
            #expect(rightWhileLocked.status == 423)
            let notices = await server.mails(to: Self.phone).filter { $0.code == nil }
            #expect(notices.count == 1 && notices.first?.channel == "sms", "one text: \(notices.map(\.body))")
            // Another channel is untouched: the number's lock is not the account's.
            server.clock.advance(by: GuessBudget.day)
            _ = try await PhoneSignInTests.requestCode(server)
            #expect(
                try await PhoneSignInTests.smsSignIn(server, code: try await PhoneSignInTests.textedCode(server)).status
                    == 200)
        }
    }

    @Test("10 a lock on sign-in codes never blocks password reset by email", arguments: TestDatabase.all)
    func test_10_1_codeLockLeavesResetOpen(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            _ = try await server.signIn(device: ["id": "phone-1"])
            for round in 0..<2 {
                let challenged = try await server.signIn(device: ["id": "laptop-\(round)"])
                let challengeID = try #require(challenged.errorBody?.challengeId, "\(challenged.text)")
                let code = try await server.latestCode(to: Self.alice)
                for _ in 0..<5 {
                    _ = try await NewDeviceTests.loginChallenge(
                        server, challengeID: challengeID, code: Self.wrong(code))
                }
                server.clock.advance(by: 61)
            }

            _ = try await Self.forgot(server)
            let reset = try await Self.reset(server, code: try await server.latestCode(to: Self.alice))

            #expect(reset.status == 204, "\(reset.text)")
        }
    }

    @Test(
        "10 at most 10 codes a day to one address, unknown addresses alike: then 429 with retry_after",
        arguments: TestDatabase.all)
    func test_10_1_codeSendsAreCapped(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            for address in [Self.alice, "nobody@example.com"] {
                var statuses: [UInt] = []
                for _ in 0..<10 {
                    statuses.append(try await Self.forgot(server, address).status)
                    server.clock.advance(by: 61)
                }
                let eleventh = try await Self.forgot(server, address)

                #expect(statuses == Array(repeating: 202, count: 10), "\(address)")
                #expect(eleventh.status == 429 && eleventh.errorCode == "RATE_LIMITED", "\(address): \(eleventh.text)")
                let retryAfter = try #require(eleventh.errorBody?.retryAfter)
                #expect(retryAfter > 80_000 && retryAfter <= 86_400)
            }
        }
    }

    @Test(
        "10 TOTP activation has a budget of wrong codes, and a pending enrolment lives 10 minutes",
        arguments: TestDatabase.all)
    func test_10_1_totpActivationBudgetAndLifetime(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let enrolled = try await server.send(.POST, "/v1/mfa/totp", bearer: tokens.accessToken)
            let secret = try #require(
                Base32.decode(try enrolled.decode(TOTPEnrollment.self).secret), "\(enrolled.text)")
            let app = Authenticator(secret: secret, recoveryCodes: [])
            var answers: [TestResponse] = []
            for _ in 0..<10 {
                answers.append(
                    try await server.send(
                        .POST, "/v1/mfa/totp/activate", json: ["code": app.wrongCode(at: server.clock.now)],
                        bearer: tokens.accessToken))
            }
            let right = try await server.send(
                .POST, "/v1/mfa/totp/activate", json: ["code": app.code(at: server.clock.now)],
                bearer: tokens.accessToken)

            #expect(
                answers.prefix(9).allSatisfy { $0.status == 400 && $0.errorCode == "AUTH_003" },
                "\(answers.map(\.text))")
            #expect(answers[0].errorBody?.attemptsRemaining == 9)
            #expect(answers[9].status == 423, "\(answers[9].text)")
            #expect(right.status == 423, "refused while the budget is spent")
        }
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let enrolled = try await server.send(.POST, "/v1/mfa/totp", bearer: tokens.accessToken)
            let secret = try #require(
                Base32.decode(try enrolled.decode(TOTPEnrollment.self).secret), "\(enrolled.text)")
            server.clock.advance(by: 601)

            let late = try await server.send(
                .POST, "/v1/mfa/totp/activate", json: ["code": TOTP(secret: secret).code(at: server.clock.now)],
                bearer: tokens.accessToken)

            #expect(late.status == 404, "an enrolment older than 10 minutes is gone: \(late.text)")
        }
    }

    @Test(
        "10 a right password does not reset the day's budget of wrong ones; a reset by email clears it",
        arguments: TestDatabase.all)
    func test_10_1_passwordBudgetSurvivesRightPasswords(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let start = server.clock.now
            var last = TestResponse(status: 0, headers: [:], data: Data())
            for round in 0..<10 {
                for _ in 0..<5 { last = try await server.signIn(password: "Wrong-Horse-9") }
                if round < 9 {
                    #expect(last.status == 423, "the ladder's 5-minute lock: \(last.text)")
                    server.clock.advance(by: 301)
                    let right = try await server.signIn()
                    #expect(right.status == 200 || right.status == 403, "the right password passes: \(right.text)")
                }
            }
            server.clock.advance(by: 3601)
            let rightAfterBudget = try await server.signIn()

            #expect(last.status == 423)
            #expect(
                try Self.lockedUntil(last) == start.addingTimeInterval(GuessBudget.day),
                "the 50th wrong password locks until the window ends")
            #expect(rightAfterBudget.status == 423, "even the right password waits: \(rightAfterBudget.text)")
            _ = try await Self.forgot(server)
            #expect(try await Self.reset(server, code: try await server.latestCode(to: Self.alice)).status == 204)
            let afterReset = try await server.signIn(password: "Brand-New-Pass-7")
            #expect(afterReset.status == 200 || afterReset.status == 403, "\(afterReset.text)")
        }
    }

    @Test(
        "10 the budget store is exact under concurrency: 40 charges at once admit exactly the limit",
        arguments: TestDatabase.all)
    func test_10_1_budgetExactUnderConcurrency(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let store = server.app.latch.budgets
            let db = server.app.db
            let now = server.clock.now.timeIntervalSince1970
            let charged = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        if case .charged = try await store.charge(
                            .smsCode(phone: "+8613800000000"), .codes, now: now, on: db)
                        {
                            return true
                        }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let lockStarts = try await withThrowingTaskGroup(of: Date?.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await store.lockIfSpent(.smsCode(phone: "+8613800000000"), .codes, now: now, on: db)
                    }
                }
                return try await group.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
            }

            #expect(charged == GuessBudget.codes.limit)
            #expect(lockStarts == 1, "exactly one request starts the lock (and tells the owner)")
            let afterWindow = try await store.charge(
                .smsCode(phone: "+8613800000000"), .codes, now: now + GuessBudget.day, on: db)
            #expect(afterWindow == .charged(remaining: GuessBudget.codes.limit - 1), "a new window starts afresh")
        }
    }

    @Test(
        "10 concurrent TOTP enrolments and first fund-password settings never answer 500", arguments: TestDatabase.all)
    func test_10_1_concurrentFirstSettingsNever500(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let enrolments = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await server.send(.POST, "/v1/mfa/totp", bearer: tokens.accessToken).status }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }
            let settings = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await server.send(
                            .PUT, "/v1/fund-password", json: ["fund_password": VerificationSamples.fundPassword],
                            bearer: tokens.accessToken
                        )
                        .status
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(enrolments.allSatisfy { $0 == 200 }, "\(enrolments)")
            // One wins (204); the others lost the race (409) or came after it, when a change needs the current one (403).
            #expect(
                settings.allSatisfy { [204, 403, 409].contains($0) } && settings.filter { $0 == 204 }.count == 1,
                "\(settings)")
        }
    }
}
