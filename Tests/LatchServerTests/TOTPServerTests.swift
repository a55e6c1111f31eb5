import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// D1 through the real HTTP stack: enrol, activate, one use per time step, the ±1 window,
/// recovery codes, and disabling only with a verification token.
@Suite("TOTP 2FA (D1)")
struct TOTPServerTests {
    @Test(
        "D1 enrolment returns a base32 secret and an otpauth URI with issuer Latch and the account",
        arguments: TestDatabase.all)
    func D1_enrolReturnsSecretAndURI(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            let enrolled = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)

            #expect(enrolled.status == 200, "\(enrolled.text)")
            let enrollment = try enrolled.decode(TOTPEnrollment.self)
            let secret = try #require(Base32.decode(enrollment.secret), "secret is base32: \(enrollment.secret)")
            #expect(secret.count >= 16, "at least 128 bits")
            let uri = enrollment.otpauthURI
            #expect(uri.hasPrefix("otpauth://totp/Latch:"), "\(uri)")
            #expect(uri.contains("alice%40example.com") || uri.contains("alice@example.com"), "\(uri)")
            #expect(uri.contains("issuer=Latch"))
            #expect(uri.contains("secret=\(enrollment.secret)"))
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("totp_enrolled"))
            let unauthenticated = try await server.send(.POST, "/v1/mfa/totp", body: nil)
            #expect(unauthenticated.status == 401 && unauthenticated.errorCode == "AUTH_004")
        }
    }

    @Test(
        "D1 activation needs the right code and returns 10 recovery codes; enrolling again while active is 409",
        arguments: TestDatabase.all)
    func D1_activateWithCode(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let enrolled = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)
            let secret = try #require(Base32.decode(try enrolled.decode(TOTPEnrollment.self).secret))
            let app = Authenticator(secret: secret, recoveryCodes: [])

            let wrong = try await server.send(
                .POST, "/v1/mfa/totp/activate", json: ["code": app.wrongCode(at: server.clock.now)],
                bearer: tokens.accessToken)
            let right = try await server.send(
                .POST, "/v1/mfa/totp/activate", json: ["code": app.code(at: server.clock.now)],
                bearer: tokens.accessToken)
            let again = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)

            #expect(wrong.status == 400 && wrong.errorCode == "AUTH_003", "\(wrong.text)")
            #expect(right.status == 200, "\(right.text)")
            let codes = try right.decode(TOTPActivated.self).recoveryCodes
            #expect(codes.count == 10)
            #expect(Set(codes).count == 10, "recovery codes are distinct")
            #expect(again.status == 409 && again.errorCode == "CONFLICT", "\(again.text)")
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(events.contains("totp_activated"))
        }
    }

    @Test("D1 activating without an enrolment is refused", arguments: TestDatabase.all)
    func D1_activateWithoutEnrolment(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            let activated = try await server.send(
                .POST, "/v1/mfa/totp/activate", json: ["code": "123456"], bearer: tokens.accessToken)

            #expect(activated.status == 404, "\(activated.text)")
        }
    }

    @Test(
        "D1 a TOTP code is accepted once per time step: a replay in the same window is refused",
        arguments: TestDatabase.all)
    func D1_codeReplayRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            server.clock.advance(by: 30)
            let code = app.code(at: server.clock.now)
            let first = try await server.startedVerification(bearer: tokens.accessToken)
            let second = try await server.startedVerification(bearer: tokens.accessToken)

            let accepted = try await server.attempt(
                first.verificationId, VerificationAttempt(method: .totp, code: code), bearer: tokens.accessToken)
            let replayed = try await server.attempt(
                second.verificationId, VerificationAttempt(method: .totp, code: code), bearer: tokens.accessToken)

            #expect(accepted.status == 200, "\(accepted.text)")
            #expect(replayed.status == 400 && replayed.errorCode == "AUTH_003", "\(replayed.text)")
            #expect(replayed.errorBody?.attemptsRemaining == 4)
            server.clock.advance(by: 30)
            let nextStep = try await server.attempt(
                second.verificationId, VerificationAttempt(method: .totp, code: app.code(at: server.clock.now)),
                bearer: tokens.accessToken)
            #expect(nextStep.status == 200, "the next step's code works: \(nextStep.text)")
        }
    }

    @Test("D1 the code activation used cannot be replayed in a verification", arguments: TestDatabase.all)
    func D1_activationCodeNotReusable(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)

            let replayed = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .totp, code: app.code(at: server.clock.now)),
                bearer: tokens.accessToken)

            #expect(replayed.status == 400 && replayed.errorCode == "AUTH_003", "\(replayed.text)")
        }
    }

    @Test(
        "D1 codes of the previous and next step are accepted (±1); two steps away are refused",
        arguments: TestDatabase.all)
    func D1_windowIsOneStep(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            server.clock.advance(by: 90)
            let now = server.clock.now
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            func attempt(_ offset: TimeInterval, _ verification: String) async throws -> TestResponse {
                try await server.attempt(
                    verification,
                    VerificationAttempt(method: .totp, code: app.code(at: now.addingTimeInterval(offset))),
                    bearer: tokens.accessToken)
            }

            let twoBack = try await attempt(-60, started.verificationId)
            let twoAhead = try await attempt(60, started.verificationId)
            let oneBack = try await attempt(-30, started.verificationId)
            let later = try await server.startedVerification(bearer: tokens.accessToken)
            let oneAhead = try await attempt(30, later.verificationId)

            #expect(twoBack.status == 400 && twoBack.errorCode == "AUTH_003", "\(twoBack.text)")
            #expect(twoAhead.status == 400 && twoAhead.errorCode == "AUTH_003", "\(twoAhead.text)")
            #expect(oneBack.status == 200, "previous step accepted: \(oneBack.text)")
            #expect(oneAhead.status == 200, "next step accepted: \(oneAhead.text)")
        }
    }

    @Test("D1 a recovery code substitutes for a TOTP code exactly once", arguments: TestDatabase.all)
    func D1_recoveryCodeSingleUse(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            let recovery = app.recoveryCodes[0]
            let first = try await server.startedVerification(bearer: tokens.accessToken)
            let second = try await server.startedVerification(bearer: tokens.accessToken)

            let used = try await server.attempt(
                first.verificationId, VerificationAttempt(method: .totp, code: recovery), bearer: tokens.accessToken)
            let reused = try await server.attempt(
                second.verificationId, VerificationAttempt(method: .totp, code: recovery), bearer: tokens.accessToken)
            let another = try await server.attempt(
                second.verificationId, VerificationAttempt(method: .totp, code: app.recoveryCodes[1].uppercased()),
                bearer: tokens.accessToken)

            #expect(used.status == 200, "\(used.text)")
            let token = try used.decode(VerificationPassed.self).verificationToken
            let redeemed = try await server.redeem(token, bearer: tokens.accessToken)
            #expect(
                redeemed.status == 200 && (try? redeemed.decode(RedeemedVerification.self))?.method == .totp,
                "\(redeemed.text)")
            #expect(reused.status == 400 && reused.errorCode == "AUTH_003", "\(reused.text)")
            #expect(another.status == 200, "another recovery code (typed in upper case) works: \(another.text)")
        }
    }

    @Test(
        "D1 disabling needs a verification token for disable_totp; afterwards totp is no longer offered",
        arguments: TestDatabase.all)
    func D1_disableNeedsVerification(database: TestDatabase) async throws {
        // about the factor, not the hold it starts (SecurityHoldTests)
        try await withServer(database, adjust: { $0.securityHoldHours = 0 }) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            server.clock.advance(by: 30)
            let withdrawalProof = try await server.verificationToken(bearer: tokens.accessToken)
            let started = try await server.startedVerification(
                "disable_totp", parameters: [:], bearer: tokens.accessToken)
            let passed = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .totp, code: app.code(at: server.clock.now)),
                bearer: tokens.accessToken)
            let proof = try passed.decode(VerificationPassed.self).verificationToken

            let noBody = try await server.send(.DELETE, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)
            let noToken = try await server.send(
                .DELETE, "/v1/mfa/totp", json: [String: String](), bearer: tokens.accessToken)
            let wrongAction = try await server.send(
                .DELETE, "/v1/mfa/totp", json: ["verification_token": withdrawalProof], bearer: tokens.accessToken)
            let disabled = try await server.send(
                .DELETE, "/v1/mfa/totp", json: ["verification_token": proof], bearer: tokens.accessToken)

            #expect(noBody.status == 400, "\(noBody.text)")
            #expect(noToken.status == 400 && noToken.errorBody?.field == "verification_token", "\(noToken.text)")
            #expect(wrongAction.status == 403 && wrongAction.errorCode == "VERIFICATION_INVALID", "\(wrongAction.text)")
            #expect(disabled.status == 204, "\(disabled.text)")
            let after = try await server.startedVerification(bearer: tokens.accessToken)
            #expect(after.methods.map(\.type) == [.fundPassword])
            #expect(after.preferred == .fundPassword)
            let reuse = try await server.send(
                .DELETE, "/v1/mfa/totp", json: ["verification_token": proof], bearer: tokens.accessToken)
            #expect(reuse.status == 404 && reuse.errorCode == "NOT_FOUND", "nothing left to disable: \(reuse.text)")
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(events.contains("totp_activated") && events.contains("totp_disabled"))
            let reenrolled = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)
            #expect(reenrolled.status == 200, "TOTP can be enrolled again: \(reenrolled.text)")
        }
    }

    @Test("D1 five wrong TOTP codes lock the totp method for an hour", arguments: TestDatabase.all)
    func D1_wrongCodesLockMethod(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            server.clock.advance(by: 30)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let wrong = VerificationAttempt(method: .totp, code: app.wrongCode(at: server.clock.now))

            var answers: [TestResponse] = []
            for _ in 1...5 {
                answers.append(try await server.attempt(started.verificationId, wrong, bearer: tokens.accessToken))
            }
            let next = try await server.startedVerification(bearer: tokens.accessToken)
            let rightWhileLocked = try await server.attempt(
                next.verificationId, VerificationAttempt(method: .totp, code: app.code(at: server.clock.now)),
                bearer: tokens.accessToken)

            #expect(answers.prefix(4).map(\.status) == [400, 400, 400, 400])
            #expect(answers.prefix(4).compactMap { $0.errorBody?.attemptsRemaining } == [4, 3, 2, 1])
            #expect(answers[4].status == 423 && answers[4].errorCode == "AUTH_002", "\(answers[4].text)")
            #expect(answers[4].lockedUntil == server.clock.now.addingTimeInterval(3600))
            #expect(
                rightWhileLocked.status == 423 && rightWhileLocked.errorCode == "AUTH_002", "\(rightWhileLocked.text)")
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("locked"))
        }
    }

    @Test(
        "D1 a TOTP method lock leaves the account usable and its warning mail does not claim the account is locked",
        arguments: TestDatabase.all)
    func D1_methodLockMailIsAccurate(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let mailsBefore = await server.mails().count
            for _ in 1...5 {
                _ = try await server.attempt(
                    started.verificationId,
                    VerificationAttempt(method: .totp, code: app.wrongCode(at: server.clock.now)),
                    bearer: tokens.accessToken)
            }

            let signIn = try await server.signIn()

            #expect(signIn.status == 200, "the account itself is not locked: \(signIn.text)")
            let warnings = await server.mails().dropFirst(mailsBefore)
            #expect(warnings.count == 1, "one warning mail: \(warnings.map(\.subject))")
            for mail in warnings {
                #expect(
                    !mail.subject.localizedCaseInsensitiveContains("account is temporarily locked")
                        && !mail.body.localizedCaseInsensitiveContains("your account is locked"),
                    "the mail must describe the 2FA lock, not an account lock: \(mail.subject) / \(mail.body)")
            }
        }
    }

    @Test("D1 concurrent uses of one TOTP code pass exactly once", arguments: TestDatabase.all)
    func D1_concurrentReplayOnce(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            server.clock.advance(by: 30)
            var verifications: [String] = []
            for _ in 0..<4 {
                verifications.append(try await server.startedVerification(bearer: tokens.accessToken).verificationId)
            }
            let code = app.code(at: server.clock.now)

            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for id in verifications {
                    group.addTask {
                        try await server.attempt(
                            id, VerificationAttempt(method: .totp, code: code), bearer: tokens.accessToken
                        ).status
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 400 }.count == 3, "\(statuses)")
        }
    }

    @Test("D1 recovery codes end with the authenticator they came with", arguments: TestDatabase.all)
    func D1_recoveryCodesEndWithDisable(database: TestDatabase) async throws {
        // about the factor, not the hold it starts (SecurityHoldTests)
        try await withServer(database, adjust: { $0.securityHoldHours = 0 }) { server in
            let tokens = try await server.signUp()
            let old = try await server.activateTOTP(bearer: tokens.accessToken)
            let started = try await server.startedVerification(
                "disable_totp", parameters: [:], bearer: tokens.accessToken)
            let passed = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .totp, code: old.recoveryCodes[0]),
                bearer: tokens.accessToken)
            let proof = try passed.decode(VerificationPassed.self).verificationToken
            let disabled = try await server.send(
                .DELETE, "/v1/mfa/totp", json: ["verification_token": proof], bearer: tokens.accessToken)
            try #require(disabled.status == 204, "\(disabled.text)")
            _ = try await server.activateTOTP(bearer: tokens.accessToken)
            let next = try await server.startedVerification(bearer: tokens.accessToken)

            let oldRecovery = try await server.attempt(
                next.verificationId, VerificationAttempt(method: .totp, code: old.recoveryCodes[1]),
                bearer: tokens.accessToken)
            let oldTOTP = try await server.attempt(
                next.verificationId,
                VerificationAttempt(method: .totp, code: old.code(at: server.clock.now.addingTimeInterval(30))),
                bearer: tokens.accessToken)

            #expect(oldRecovery.status == 400 && oldRecovery.errorCode == "AUTH_003", "\(oldRecovery.text)")
            #expect(oldTOTP.status == 400 && oldTOTP.errorCode == "AUTH_003", "the old secret is gone: \(oldTOTP.text)")
        }
    }
}
