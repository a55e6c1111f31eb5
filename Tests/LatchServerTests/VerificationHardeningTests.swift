import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// Second factors must not be addable, or guessable, by someone holding only a stolen access token
/// or only the password.
@Suite("Step-up hardening (D1, C8)")
struct VerificationHardeningTests {
    @Test(
        "D1 enrolling TOTP needs a recent sign-in or a verification token for enable_totp", arguments: TestDatabase.all)
    func D1_enrolmentNeedsRecentSignInOrProof(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            server.clock.advance(by: 11 * 60)

            let stale = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)
            let proof = try await server.verificationToken("enable_totp", parameters: [:], bearer: tokens.accessToken)
            let proven = try await server.send(
                .POST, "/v1/mfa/totp", json: ["verification_token": proof], bearer: tokens.accessToken)

            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED", "\(stale.text)")
            #expect(proven.status == 200, "\(proven.text)")
        }
    }

    @Test("C8 new-device sign-ins within a minute share one challenge and one code mail", arguments: TestDatabase.all)
    func C8_oneChallengeMailPerMinute(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp(device: ["id": "phone-1"])
            #expect(try await server.signIn(device: ["id": "phone-1"]).status == 200)

            let first = try await server.signIn(device: ["id": "laptop-2"])
            let second = try await server.signIn(device: ["id": "laptop-2"])
            server.clock.advance(by: 61)
            let third = try await server.signIn(device: ["id": "laptop-2"])

            #expect(first.status == 403 && second.status == 403 && third.status == 403)
            let firstID = try #require(first.errorBody?.challengeId)
            #expect(second.errorBody?.challengeId == firstID)
            #expect(third.errorBody?.challengeId != firstID)
            let codeMails = await server.mails().filter { $0.code != nil && $0.subject.contains("sign-in code") }
            #expect(codeMails.count == 2)
        }
    }

    @Test("D1 using a recovery code is recorded as a security event", arguments: TestDatabase.all)
    func D1_recoveryCodeUseIsRecorded(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let authenticator = try await server.activateTOTP(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)

            let passed = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .totp, code: authenticator.recoveryCodes[0]),
                bearer: tokens.accessToken)

            #expect(passed.status == 200, "\(passed.text)")
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("recovery_code_used"))
        }
    }
}
