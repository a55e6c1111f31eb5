import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// C1 phone number + SMS code: codes from the development outbox, time from the test clock.
@Suite("Phone sign-in (C1)")
struct PhoneSignInTests {
    static let phone = "+8613800138000"

    static func requestCode(_ server: TestServer, _ phone: String = phone) async throws -> TestResponse {
        try await server.send(.POST, "/v1/sms/codes", json: ["phone": phone])
    }

    static func smsSignIn(_ server: TestServer, _ phone: String = phone, code: String) async throws -> TestResponse {
        try await server.send(.POST, "/v1/token", json: ["grant_type": "sms_code", "phone": phone, "code": code])
    }

    /// The latest texted code, checking that it went out as an SMS.
    static func textedCode(_ server: TestServer, _ phone: String = phone) async throws -> String {
        let message = try #require(await server.app.latch.outbox?.messages(to: phone).last)
        #expect(message.channel == "sms")
        let code = try #require(message.code)
        #expect(message.body.contains(code))
        return code
    }

    @Test(
        "C1 an SMS code signs in; the first sign-in creates an account with no email or password",
        arguments: TestDatabase.all)
    func C1_smsCodeSignInCreatesAccount(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sent = try await Self.requestCode(server)
            let first = try await Self.smsSignIn(server, code: try await Self.textedCode(server))
            server.clock.advance(by: 60)
            _ = try await Self.requestCode(server)
            let second = try await Self.smsSignIn(server, code: try await Self.textedCode(server))

            #expect(
                sent.status == 202
                    && (try? sent.decode(SMSCodeAccepted.self)) == SMSCodeAccepted(expiresIn: 300, resendAfter: 60),
                "\(sent.text)")
            #expect(first.status == 200, "\(first.text)")
            let tokens = try first.decode(TokenResponse.self)
            #expect(tokens.user.email == nil)
            #expect(try second.decode(TokenResponse.self).user.id == tokens.user.id)
            let me = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
            let identities = try #require(try me.decode(UserInfo.self).identities, "\(me.text)")
            #expect(identities.count == 1 && identities[0].provider == "phone")
            #expect(identities[0].identifier == Self.phone)
            // An account without email or password works elsewhere too.
            #expect(try await server.send(.GET, "/v1/sessions", bearer: tokens.accessToken).status == 200)
            #expect(
                try await server.send(.PATCH, "/v1/me", json: ["nickname": "Phone User"], bearer: tokens.accessToken)
                    .status == 200)
            #expect(try await server.refresh(tokens.refreshToken).status == 200)
        }
    }

    @Test("C1 phone numbers must be E.164", arguments: TestDatabase.all)
    func C1_phoneMustBeE164(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for bad in [
                "13800138000", "+0123456789", "+86 138 0013 8000", "+1234567", "+1234567890123456", "+86138001380OO"
            ] {
                let answer = try await Self.requestCode(server, bad)
                #expect(answer.status == 422 && answer.errorBody?.field == "phone", "\(bad): \(answer.text)")
                #expect(answer.errorBody?.reasons == ["invalid_phone"])
            }
            let missing = try await server.send(.POST, "/v1/token", json: ["grant_type": "sms_code", "code": "123456"])
            #expect(missing.status == 400 && missing.errorBody?.field == "phone")
        }
    }

    @Test("C1 an SMS code is 6 digits, lives 5 minutes, counts its tries and works once", arguments: TestDatabase.all)
    func C1_smsCodeRules(database: TestDatabase) async throws {
        try await withServer(database) { server in
            _ = try await Self.requestCode(server)
            let code = try await Self.textedCode(server)
            let wrong = code == "000000" ? "111111" : "000000"
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))

            let firstWrong = try await Self.smsSignIn(server, code: wrong)
            for _ in 2...4 { _ = try await Self.smsSignIn(server, code: wrong) }
            let right = try await Self.smsSignIn(server, code: code)
            let again = try await Self.smsSignIn(server, code: code)

            #expect(
                firstWrong.status == 400 && firstWrong.errorCode == "AUTH_003"
                    && firstWrong.errorBody?.attemptsRemaining == 4)
            #expect(right.status == 200, "the fifth try with the right code still works")
            #expect(again.status == 400 && again.errorBody?.attemptsRemaining == 0, "single use")

            // Expiry: a code 5 minutes old is dead.
            server.clock.advance(by: 60)
            _ = try await Self.requestCode(server)
            let late = try await Self.textedCode(server)
            server.clock.advance(by: 300)
            let expired = try await Self.smsSignIn(server, code: late)
            #expect(
                expired.status == 400 && expired.errorCode == "AUTH_003" && expired.errorBody?.attemptsRemaining == 0)
        }
    }

    @Test("C1 one SMS a minute and 10 a day per number (429 with retry_after)", arguments: TestDatabase.all)
    func C1_smsSendLimitsPerNumber(database: TestDatabase) async throws {
        try await withServer(database) { server in
            #expect(try await Self.requestCode(server).status == 202)
            let tooSoon = try await Self.requestCode(server)
            server.clock.advance(by: 30)
            let stillTooSoon = try await Self.requestCode(server)
            server.clock.advance(by: 30)
            #expect(try await Self.requestCode(server).status == 202)
            for _ in 3...10 {
                server.clock.advance(by: 61)
                #expect(try await Self.requestCode(server).status == 202)
            }
            server.clock.advance(by: 61)
            let eleventh = try await Self.requestCode(server)
            let otherNumber = try await Self.requestCode(server, "+14155550100")

            #expect(tooSoon.status == 429 && tooSoon.errorCode == "RATE_LIMITED" && tooSoon.errorBody?.retryAfter == 60)
            #expect(tooSoon.headers.first(name: "Retry-After") == "60")
            #expect(stillTooSoon.errorBody?.retryAfter == 30)
            #expect(eleventh.status == 429 && eleventh.errorBody?.retryAfter == 86400 - 60 - 8 * 61 - 61)
            #expect(otherNumber.status == 202)
            server.clock.advance(by: Double(eleventh.errorBody?.retryAfter ?? 0))
            #expect(try await Self.requestCode(server).status == 202, "a new day")
        }
    }

    @Test("C1 one client IP may ask for at most 20 codes an hour, whatever the numbers", arguments: TestDatabase.all)
    func C1_smsSendLimitPerIP(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for index in 0..<20 {
                #expect(try await Self.requestCode(server, "+861380013\(String(format: "%04d", index))").status == 202)
            }
            let limited = try await Self.requestCode(server, "+8613900139000")
            server.clock.advance(by: 3600)
            let later = try await Self.requestCode(server, "+8613900139000")

            #expect(limited.status == 429 && limited.errorBody?.retryAfter == 3600)
            #expect(later.status == 202)
        }
    }

    @Test("C11 asking for a code says nothing about whether the number has an account", arguments: TestDatabase.all)
    func C11_smsCodeRequestDoesNotRevealAccounts(database: TestDatabase) async throws {
        try await withServer(database) { server in
            _ = try await Self.requestCode(server)
            #expect(try await Self.smsSignIn(server, code: try await Self.textedCode(server)).status == 200)
            server.clock.advance(by: 60)

            let known = try await Self.requestCode(server)
            let unknown = try await Self.requestCode(server, "+8613700137000")
            let texted = try await Self.textedCode(server)
            let knownWrong = try await Self.smsSignIn(server, code: texted == "999999" ? "888888" : "999999")
            let unknownWrong = try await Self.smsSignIn(server, "+8613600136000", code: "999999")

            #expect(known.status == unknown.status && known.text == unknown.text)
            #expect(knownWrong.status == 400 && unknownWrong.status == 400)
            #expect(knownWrong.errorCode == unknownWrong.errorCode)
        }
    }
    @Test(
        "C1 an account with only a phone number does step-up too: fund password, verification, redemption",
        arguments: TestDatabase.all)
    func C1_phoneOnlyAccountUsesVerification(database: TestDatabase) async throws {
        try await withServer(database) { server in
            _ = try await Self.requestCode(server)
            let tokens = try await Self.smsSignIn(server, code: try await Self.textedCode(server)).decode(
                TokenResponse.self)

            try await server.setFundPassword(bearer: tokens.accessToken)
            let proof = try await server.verificationToken(bearer: tokens.accessToken)
            let redeemed = try await server.redeem(proof, bearer: tokens.accessToken)
            let unlinkLast = try await server.send(.DELETE, "/v1/me/identities/phone", bearer: tokens.accessToken)

            #expect(redeemed.status == 200, "\(redeemed.text)")
            #expect(unlinkLast.status == 409 && unlinkLast.errorBody?.reasons == ["last_sign_in_method"])
        }
    }

    @Test("C1 six concurrent code requests for one number send exactly one SMS", arguments: TestDatabase.all)
    func C1_concurrentCodeRequestsSendOneSMS(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                // Six: below the test client's eight connections per host, so none waits for a connection.
                for _ in 0..<6 { group.addTask { try await Self.requestCode(server).status } }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == 202 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 5)
            #expect(await server.app.latch.outbox?.messages(to: Self.phone).count == 1)
        }
    }
}
