import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// D2 through the real HTTP stack: the fund password's rules, who may set and change it, and its
/// own failure limit and lock.
@Suite("Fund password (D2)")
struct FundPasswordTests {
    @Test("D2 weak or malformed fund passwords are refused naming fund_password", arguments: TestDatabase.all)
    func D2_policyRefusesWeakValues(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let cases: [(String, String)] = [
                ("111111", "all_same"), ("123456", "straight_run"), ("654321", "straight_run"),
                ("12345", "not_six_digits"), ("1234567", "not_six_digits"), ("abcdef", "not_six_digits")
            ]

            for (value, reason) in cases {
                let refused = try await server.send(
                    .PUT, "/v1/fund-password", json: ["fund_password": value], bearer: tokens.accessToken)

                #expect(refused.status == 422 && refused.errorCode == "VALIDATION_FAILED", "\(value): \(refused.text)")
                #expect(refused.errorBody?.field == "fund_password", "\(value)")
                #expect((refused.errorBody?.reasons)?.contains(reason) == true, "\(value): \(refused.text)")
            }
            let started = try await server.startVerification(bearer: tokens.accessToken)
            #expect(
                started.status == 409 && started.errorCode == "NO_VERIFICATION_METHOD",
                "nothing was set: \(started.text)")
        }
    }

    @Test("D2 the first fund password needs a sign-in within the last 10 minutes", arguments: TestDatabase.all)
    func D2_firstSetNeedsRecentSignIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")
            server.clock.advance(by: 599)

            let recent = try await server.send(
                .PUT, "/v1/fund-password", json: ["fund_password": "246810"], bearer: alice.accessToken)
            server.clock.advance(by: 61)
            let stale = try await server.send(
                .PUT, "/v1/fund-password", json: ["fund_password": "246810"], bearer: bob.accessToken)
            let fresh = try await server.signIn("bob@example.com").decode(TokenResponse.self)
            let afterSignIn = try await server.send(
                .PUT, "/v1/fund-password", json: ["fund_password": "246810"], bearer: fresh.accessToken)

            #expect(recent.status == 204, "\(recent.text)")
            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED", "\(stale.text)")
            #expect(afterSignIn.status == 204, "\(afterSignIn.text)")
            #expect(try await server.eventTypes(bearer: alice.accessToken).contains("fund_password_set"))
            let offered = try await server.startedVerification(bearer: alice.accessToken)
            #expect(offered.methods.map(\.type) == [.fundPassword] && offered.preferred == .fundPassword)
        }
    }

    @Test("D2 changing it needs the current fund password (or a verification token)", arguments: TestDatabase.all)
    func D2_changeNeedsCurrent(database: TestDatabase) async throws {
        // about the factor, not the hold it starts (SecurityHoldTests)
        try await withServer(database, adjust: { $0.securityHoldHours = 0 }) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword("246810", bearer: tokens.accessToken)

            let withoutCurrent = try await server.send(
                .PUT, "/v1/fund-password", json: ["fund_password": "135790"], bearer: tokens.accessToken)
            let wrongCurrent = try await server.send(
                .PUT, "/v1/fund-password", json: ["fund_password": "135790", "current_fund_password": "975310"],
                bearer: tokens.accessToken)
            let rightCurrent = try await server.send(
                .PUT, "/v1/fund-password", json: ["fund_password": "135790", "current_fund_password": "246810"],
                bearer: tokens.accessToken)

            #expect(
                withoutCurrent.status == 403 && withoutCurrent.errorCode == "VERIFICATION_REQUIRED",
                "\(withoutCurrent.text)")
            #expect(wrongCurrent.status == 400 && wrongCurrent.errorCode == "AUTH_003", "\(wrongCurrent.text)")
            #expect(wrongCurrent.errorBody?.attemptsRemaining == 4)
            #expect(rightCurrent.status == 204, "\(rightCurrent.text)")
            let old = try await server.startedVerification(bearer: tokens.accessToken)
            let oldAnswer = try await server.attempt(
                old.verificationId, VerificationAttempt(method: .fundPassword, fundPassword: "246810"),
                bearer: tokens.accessToken)
            #expect(oldAnswer.status == 400 && oldAnswer.errorCode == "AUTH_003", "the old one no longer works")
            _ = try await server.verificationToken(fundPassword: "135790", bearer: tokens.accessToken)
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("fund_password_changed"))
        }
    }

    @Test(
        "D2 a verification token for change_fund_password also allows a change, even long after sign-in",
        arguments: TestDatabase.all)
    func D2_changeWithVerificationToken(database: TestDatabase) async throws {
        // about the factor, not the hold it starts (SecurityHoldTests)
        try await withServer(database, adjust: { $0.securityHoldHours = 0 }) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword("246810", bearer: tokens.accessToken)
            server.clock.advance(by: 3600)
            let wrongAction = try await server.verificationToken(parameters: [:], bearer: tokens.accessToken)
            let proof = try await server.verificationToken(
                "change_fund_password", parameters: [:], bearer: tokens.accessToken)

            let refused = try await server.send(
                .PUT, "/v1/fund-password", json: ["fund_password": "135790", "verification_token": wrongAction],
                bearer: tokens.accessToken)
            let changed = try await server.send(
                .PUT, "/v1/fund-password", json: ["fund_password": "135790", "verification_token": proof],
                bearer: tokens.accessToken)

            #expect(refused.status == 403 && refused.errorCode == "VERIFICATION_INVALID", "\(refused.text)")
            #expect(changed.status == 204, "\(changed.text)")
            _ = try await server.verificationToken(fundPassword: "135790", bearer: tokens.accessToken)
        }
    }

    @Test(
        "D2 five wrong fund passwords lock the method for 1 hour, mail a warning, and refuse the right one",
        arguments: TestDatabase.all)
    func D2_fiveFailuresLockOneHour(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let wrong = VerificationAttempt(method: .fundPassword, fundPassword: "975310")

            var answers: [TestResponse] = []
            for _ in 1...5 {
                answers.append(try await server.attempt(started.verificationId, wrong, bearer: tokens.accessToken))
            }
            let lockedAt = server.clock.now
            let next = try await server.startedVerification(bearer: tokens.accessToken)
            let checksBefore = server.app.latch.passwordChecksPerformed
            let rightWhileLocked = try await server.attempt(
                next.verificationId,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: tokens.accessToken)
            let checksWhileLocked = server.app.latch.passwordChecksPerformed - checksBefore
            let changeWhileLocked = try await server.send(
                .PUT, "/v1/fund-password",
                json: ["fund_password": "135790", "current_fund_password": VerificationSamples.fundPassword],
                bearer: tokens.accessToken)

            #expect(answers.prefix(4).map(\.status) == [400, 400, 400, 400])
            #expect(answers.prefix(4).map(\.errorCode) == ["AUTH_003", "AUTH_003", "AUTH_003", "AUTH_003"])
            #expect(answers.prefix(4).compactMap { $0.errorBody?.attemptsRemaining } == [4, 3, 2, 1])
            #expect(answers[4].status == 423 && answers[4].errorCode == "AUTH_002", "\(answers[4].text)")
            #expect(answers[4].lockedUntil == lockedAt.addingTimeInterval(3600), "\(answers[4].text)")
            #expect(
                rightWhileLocked.status == 423 && rightWhileLocked.errorCode == "AUTH_002", "\(rightWhileLocked.text)")
            #expect(rightWhileLocked.lockedUntil == lockedAt.addingTimeInterval(3600))
            #expect(
                changeWhileLocked.status == 423 && changeWhileLocked.errorCode == "AUTH_002",
                "\(changeWhileLocked.text)")
            #expect(checksWhileLocked == 0, "no fund-password check while locked")
            let warnings = await server.mails().filter { $0.subject.localizedCaseInsensitiveContains("fund password") }
            #expect(warnings.count == 1, "one warning mail: \(warnings.map(\.subject))")
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(events.filter { $0 == "locked" }.count == 1)
            #expect(events.filter { $0 == "verification_failed" }.count == 5)

            server.clock.advance(by: 3600)
            _ = try await server.verificationToken(bearer: tokens.accessToken)
        }
    }

    @Test("D2 the fund-password count runs across verifications and a success resets it", arguments: TestDatabase.all)
    func D2_countAcrossVerifications(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let wrong = VerificationAttempt(method: .fundPassword, fundPassword: "975310")
            for _ in 1...3 {
                let started = try await server.startedVerification(bearer: tokens.accessToken)
                _ = try await server.attempt(started.verificationId, wrong, bearer: tokens.accessToken)
            }
            let fourth = try await server.startedVerification(bearer: tokens.accessToken)
            _ = try await server.attempt(fourth.verificationId, wrong, bearer: tokens.accessToken)
            let fifth = try await server.startedVerification(bearer: tokens.accessToken)

            let locking = try await server.attempt(fifth.verificationId, wrong, bearer: tokens.accessToken)

            #expect(locking.status == 423 && locking.errorCode == "AUTH_002", "the 5th in a row locks: \(locking.text)")
            server.clock.advance(by: 3600)
            _ = try await server.verificationToken(bearer: tokens.accessToken)
            let afterSuccess = try await server.startedVerification(bearer: tokens.accessToken)
            for _ in 1...4 {
                let answer = try await server.attempt(afterSuccess.verificationId, wrong, bearer: tokens.accessToken)
                #expect(answer.status == 400, "a success starts the count again: \(answer.text)")
            }
        }
    }

    @Test("D2 a fund-password lock leaves the other methods usable", arguments: TestDatabase.all)
    func D2_lockLeavesOtherMethods(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            for _ in 1...5 {
                _ = try await server.attempt(
                    started.verificationId, VerificationAttempt(method: .fundPassword, fundPassword: "975310"),
                    bearer: tokens.accessToken)
            }
            server.clock.advance(by: 30)
            let next = try await server.startedVerification(bearer: tokens.accessToken)

            let byTOTP = try await server.attempt(
                next.verificationId, VerificationAttempt(method: .totp, code: app.code(at: server.clock.now)),
                bearer: tokens.accessToken)

            #expect(byTOTP.status == 200, "\(byTOTP.text)")
        }
    }

    @Test("D2 20 concurrent wrong fund passwords never cause more than 5 checks", arguments: TestDatabase.all)
    func D2_concurrentFailuresCheckAtMostFive(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            var verifications: [String] = []
            for _ in 0..<4 {
                verifications.append(try await server.startedVerification(bearer: tokens.accessToken).verificationId)
            }
            let before = server.app.latch.passwordChecksPerformed

            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for index in 0..<20 {
                    let id = verifications[index % 4]
                    group.addTask {
                        try await server.attempt(
                            id, VerificationAttempt(method: .fundPassword, fundPassword: "975310"),
                            bearer: tokens.accessToken
                        )
                        .status
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(server.app.latch.passwordChecksPerformed - before <= 5)
            #expect(statuses.filter { $0 == 400 }.count == 4, "\(statuses)")
            #expect(statuses.filter { $0 == 423 }.count == 16, "\(statuses)")
            #expect(!statuses.contains { $0 >= 500 })
        }
    }
}
