import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// A forgotten password (email code, then reset: every session ends) and a password change (knowing
/// the current one: the other sessions end), through the real HTTP stack.
@Suite("Passwords (C3, C8, C11)")
struct PasswordTests {
    @Test("C11 forgot for an unknown address answers 202 and mails nothing", arguments: TestDatabase.all)
    func C11_forgotUnknownEmailRevealsNothing(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()

            let unknown = try await server.forgot("ghost@example.com")
            let known = try await server.forgot("alice@example.com")

            #expect(unknown.status == 202 && known.status == 202)
            #expect(unknown.data == known.data)
            #expect((await server.app.latch.outbox?.messages(to: "ghost@example.com") ?? []).isEmpty)
        }
    }

    @Test("C11 forgot for a known address answers 202 and mails a 6-digit reset code", arguments: TestDatabase.all)
    func C11_forgotKnownEmailMailsCode(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let before = await server.app.latch.outbox?.messages(to: "alice@example.com").count ?? 0

            let forgot = try await server.forgot(" Alice@Example.com ")

            #expect(forgot.status == 202, "\(forgot.text)")
            let mails = await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []
            #expect(mails.count == before + 1)
            let code = try #require(mails.last?.code)
            #expect(code.count == 6 && code.allSatisfy { $0.isASCII && $0.isNumber })
            #expect(mails.last?.subject.contains("reset") == true, "\(mails.last?.subject ?? "")")
        }
    }

    @Test("C8 a reset with the code sets the new password and ends every session", arguments: TestDatabase.all)
    func C8_resetEndsEverySession(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()
            let second = try await server.signIn().decode(TokenResponse.self)
            #expect(try await server.forgot("alice@example.com").status == 202)
            let code = try await server.latestCode(to: "alice@example.com")

            let reset = try await server.reset(code: code, newPassword: "Brand-New-Pass-7")

            #expect(reset.status == 204, "\(reset.text)")
            for session in [first, second] {
                let access = try await server.send(.GET, "/v1/me", bearer: session.accessToken)
                #expect(access.status == 401 && access.errorCode == "AUTH_004")
                let refresh = try await server.refresh(session.refreshToken)
                #expect(refresh.status == 401 && refresh.errorCode == "AUTH_004")
            }
            // The reset forgot every device (issue 10 §2): the new password signs in with the mailed code.
            #expect(
                try await server.signInConfirmingNewDevice(password: "Brand-New-Pass-7", device: TestServer.testDevice)
                    .user.email == "alice@example.com")
            let old = try await server.signIn(password: "Correct-Horse-9")
            #expect(old.status == 401 && old.errorCode == "AUTH_001")
            let again = try await server.reset(code: code, newPassword: "Another-Pass-55")
            #expect(again.status == 400 && again.errorCode == "AUTH_003", "the code is single-use: \(again.text)")
        }
    }

    @Test(
        "C11 a reset with a wrong code is AUTH_003 counting down, then even the right code fails",
        arguments: TestDatabase.all)
    func C11_resetWithWrongCode(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            _ = try await server.forgot("alice@example.com")
            let code = try await server.latestCode(to: "alice@example.com")
            let wrong = code == "000000" ? "000001" : "000000"

            for remaining in [4, 3, 2, 1, 0] {
                let attempt = try await server.reset(code: wrong, newPassword: "Brand-New-Pass-7")
                #expect(attempt.status == 400 && attempt.errorCode == "AUTH_003", "\(attempt.text)")
                #expect(attempt.errorBody?.attemptsRemaining == remaining)
            }
            let right = try await server.reset(code: code, newPassword: "Brand-New-Pass-7")

            #expect(right.status == 400 && right.errorCode == "AUTH_003")
            #expect(try await server.signIn().status == 200, "the password is unchanged")
            #expect(try await server.send(.GET, "/v1/me", bearer: tokens.accessToken).status == 200, "no session ended")
        }
    }

    @Test(
        "C3 a reset to a weak password is 422 naming new_password and does not use up the code",
        arguments: TestDatabase.all)
    func C3_resetToWeakPasswordKeepsCode(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            _ = try await server.forgot("alice@example.com")
            let code = try await server.latestCode(to: "alice@example.com")

            let weak = try await server.reset(code: code, newPassword: "password")
            let common = try await server.reset(code: code, newPassword: "Password1")
            let valid = try await server.reset(code: code, newPassword: "Brand-New-Pass-7")

            #expect(weak.status == 422 && weak.errorCode == "VALIDATION_FAILED", "\(weak.text)")
            #expect(weak.errorBody?.field == "new_password")
            #expect(common.status == 422 && common.errorBody?.field == "new_password")
            #expect((common.errorBody?.reasons)?.contains("common") == true, "\(common.text)")
            #expect(valid.status == 204, "the code survived the refused attempts: \(valid.text)")
            // The reset forgot every device (issue 10 §2): the new password signs in with the mailed code.
            #expect(
                try await server.signInConfirmingNewDevice(password: "Brand-New-Pass-7", device: TestServer.testDevice)
                    .user.email == "alice@example.com")
        }
    }

    @Test("C8 a password change ends the other sessions and keeps this one", arguments: TestDatabase.all)
    func C8_changeEndsOtherSessions(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let here = try await server.signUp()
            let elsewhere = try await server.signIn().decode(TokenResponse.self)

            let changed = try await server.send(
                .POST, "/v1/password/change",
                json: ["current_password": "Correct-Horse-9", "new_password": "Brand-New-Pass-7"],
                bearer: here.accessToken)

            #expect(changed.status == 204, "\(changed.text)")
            #expect(try await server.send(.GET, "/v1/me", bearer: elsewhere.accessToken).errorCode == "AUTH_004")
            #expect(try await server.refresh(elsewhere.refreshToken).errorCode == "AUTH_004")
            #expect(try await server.send(.GET, "/v1/me", bearer: here.accessToken).status == 200)
            #expect(try await server.refresh(here.refreshToken).status == 200)
            #expect(try await server.signIn(password: "Brand-New-Pass-7").status == 200)
            #expect(try await server.signIn(password: "Correct-Horse-9").errorCode == "AUTH_001")
            let mails = await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []
            #expect(mails.contains { $0.subject.contains("password was changed") })
        }
    }

    @Test(
        "C11 a password change with the wrong current password is 401 AUTH_001 and changes nothing",
        arguments: TestDatabase.all)
    func C11_changeWithWrongCurrentPassword(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let here = try await server.signUp()
            let elsewhere = try await server.signIn().decode(TokenResponse.self)

            let refused = try await server.send(
                .POST, "/v1/password/change",
                json: ["current_password": "Wrong-Password-1", "new_password": "Brand-New-Pass-7"],
                bearer: here.accessToken)

            #expect(refused.status == 401 && refused.errorCode == "AUTH_001", "\(refused.text)")
            #expect(refused.errorBody?.attemptsRemaining == 4)
            #expect(
                try await server.send(.GET, "/v1/me", bearer: here.accessToken).status == 200,
                "a wrong guess does not sign out")
            #expect(try await server.send(.GET, "/v1/me", bearer: elsewhere.accessToken).status == 200)
            #expect(try await server.signIn(password: "Correct-Horse-9").status == 200)
        }
    }

    @Test("C3 a password change to a weak password is 422 naming new_password", arguments: TestDatabase.all)
    func C3_changeToWeakPasswordRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let here = try await server.signUp()

            let refused = try await server.send(
                .POST, "/v1/password/change", json: ["current_password": "Correct-Horse-9", "new_password": "short"],
                bearer: here.accessToken)

            #expect(refused.status == 422 && refused.errorBody?.field == "new_password", "\(refused.text)")
            #expect((refused.errorBody?.reasons)?.contains("too_short") == true)
            #expect(try await server.signIn(password: "Correct-Horse-9").status == 200)
            #expect(
                try await server.send(
                    .POST, "/v1/password/change", json: ["current_password": "x", "new_password": "y"]
                ).status == 401)
        }
    }
}

extension TestServer {
    /// `POST /v1/password/forgot`.
    fileprivate func forgot(_ email: String) async throws -> TestResponse {
        try await send(.POST, "/v1/password/forgot", json: ["email": email])
    }

    /// `POST /v1/password/reset` for alice@example.com.
    fileprivate func reset(code: String, newPassword: String, email: String = "alice@example.com") async throws
        -> TestResponse
    {
        try await send(.POST, "/v1/password/reset", json: ["email": email, "code": code, "new_password": newPassword])
    }
}
