// VerificationDriver against a scripted environment: the driver only runs what the flow decides,
// and the journeys of issue 4 (biometrics, three failures to the fund password, other method,
// cancel, interruption, time-out) hold end to end through it.
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("Verification driver", .timeLimit(.minutes(10)))
struct VerificationDriverTests {
    typealias F = VerificationFixtures

    @Test("A1 A2 A11 biometrics first; the signed challenge passes and the context comes back")
    func A2_biometricJourney() async throws {
        let environment = FakeVerificationEnvironment(starts: [.success(F.started())], outcomes: [.outcome(.success)])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)

        let result = await driver.run()

        // Passed, with the original context.
        #expect(
            result
                == .succeeded(
                    VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .biometric)))

        // The server got the action, then one biometric attempt signed over the bound message.
        #expect(await environment.startRequests == [F.withdrawal.request])
        let message = try SignedMessage.verification(
            action: "withdrawal", parameters: F.withdrawal.parameters, challengeID: "ch-v-1", challenge: "challenge-v-1"
        )
        #expect(
            await environment.attempts.map(\.attempt) == [
                VerificationAttempt(method: .biometric, credentialId: F.credentialID, signature: "sig:" + message.text)
            ])

        // The pages shown, and the closing announcement.
        #expect(await environment.screens.map(\.kind) == [.preparing, .biometric, .biometricChecking])
        #expect(await environment.dismissals == [VerificationAnnouncement("验证成功")])
    }

    @Test("A3 three failures fall to the fund password, which passes")
    func A3_threeFailuresToFundPassword() async throws {
        let environment = FakeVerificationEnvironment(
            starts: [.success(F.started())], outcomes: [.outcome(.failed), .outcome(.failed), .outcome(.failed)],
            attempts: [.success(F.passed)])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        // Failure 1: 再试一次.
        #expect(try await environment.next(.biometricRetry).message == "第1/3次尝试失败")
        driver.send(.tapped(.retry))

        // Failure 2: 再试一次.
        #expect(try await environment.next(.biometricRetry).detail == "剩余1次尝试机会，之后将使用密码验证")
        driver.send(.tapped(.retry))

        // Failure 3: the fund-password page by itself.
        #expect(try await environment.next(.fundPassword).message == "Face ID验证失败次数过多，请使用密码验证")
        driver.send(.submittedFundPassword(VerificationSecret("135790")))

        // Passed by the fund password.
        #expect(await run.value.proofMethod == .fundPassword)
        #expect(
            await environment.attempts.map(\.attempt) == [
                VerificationAttempt(method: .fundPassword, fundPassword: "135790")
            ])
    }

    @Test(
        "issue 11 B2 −8: the driver runs the passcode prompt from the password page; not entered, the page stays; entered, Face ID passes"
    )
    func test_11_passcodeUnlocksThroughTheDriver() async throws {
        let environment = FakeVerificationEnvironment(
            starts: [.success(F.started())], outcomes: [.outcome(.lockout), .outcome(.success)],
            passcodes: [false, true])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        // Locked before this page: the fund password, with the passcode offered.
        let locked = try await environment.next(.fundPassword)
        #expect(locked.button(.unlockWithPasscode) != nil)
        driver.send(.tapped(.unlockWithPasscode))

        // Not entered: the same page again.
        #expect(try await environment.next(.fundPassword) == locked)
        driver.send(.tapped(.unlockWithPasscode))

        // Entered: Face ID at once, which passes.
        #expect(await run.value.proofMethod == .biometric)
        #expect(
            await environment.passcodePrompts
                == Array(
                    repeating: VerificationPasscodePrompt(
                        sensor: .faceID, localizedReason: "输入设备密码以解锁Face ID", cancelTitle: "取消"),
                    count: 2))
        #expect(await environment.evaluationPrompts.count == 2)
    }

    @Test("A5 使用其他方式验证 reaches 2FA, a wrong code shows what is left, the right one passes")
    func A5_otherMethodTo2FA() async throws {
        let environment = FakeVerificationEnvironment(
            starts: [.success(F.started())], outcomes: [.outcome(.failed)],
            attempts: [.failure(.wrongAnswer(attemptsRemaining: 4)), .success(F.passed)])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        // After a failure, the other method.
        _ = try await environment.next(.biometricRetry)
        driver.send(.tapped(.otherMethod))

        // A wrong code.
        _ = try await environment.next(.oneTimeCode)
        driver.send(.submittedCode(VerificationSecret("111111")))
        #expect(
            try await environment.next(.oneTimeCode, where: { !$0.isBusy && $0.detail != nil }).detail == "剩余4次尝试机会")

        // The right one.
        driver.send(.submittedCode(VerificationSecret("222222")))
        #expect(await run.value.proofMethod == .totp)
    }

    @Test("A4 取消 while the prompt is up stops it; no attempt, no token")
    func A4_cancelDuringPrompt() async throws {
        let environment = FakeVerificationEnvironment(starts: [.success(F.started())], outcomes: [.untilCancelled])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        // The prompt is up; the user cancels.
        _ = try await environment.next(.biometric)
        driver.send(.tapped(.cancel))

        // Cancelled, the prompt stopped, nothing sent.
        #expect(await run.value == .cancelled)
        #expect(await environment.cancelledEvaluations == 1)
        #expect(await environment.attempts.isEmpty)
        #expect(await environment.dismissals == [VerificationAnnouncement("已取消验证")])
    }

    @Test("A4 cancelling the caller's task is 取消")
    func A4_taskCancellationCancels() async throws {
        let environment = FakeVerificationEnvironment(starts: [.success(F.started())], outcomes: [.untilCancelled])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }
        _ = try await environment.next(.biometric)

        run.cancel()

        #expect(await run.value == .cancelled)
    }

    @Test("A8 leaving the app stops the prompt and counts nothing")
    func A8_backgroundDuringPrompt() async throws {
        let environment = FakeVerificationEnvironment(
            starts: [.success(F.started())], outcomes: [.untilCancelled, .outcome(.failed)])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        // The prompt is up; the app goes to the background.
        _ = try await environment.next(.biometric)
        driver.send(.appDidEnterBackground)
        #expect(try await environment.next(.biometricRetry).message == "Face ID验证已中断，请再试一次")

        // Back: 再试一次, and the next failure is the first.
        driver.send(.tapped(.retry))
        #expect(try await environment.next(.biometricRetry).message == "第1/3次尝试失败")

        driver.send(.tapped(.cancel))
        #expect(await run.value == .cancelled)
        #expect(await environment.cancelledEvaluations == 1)
    }

    @Test("A8 the timer expires the verification; 重新验证 opens a new one for the same action")
    func A8_timeoutAndRestart() async throws {
        let environment = FakeVerificationEnvironment(
            starts: [.success(F.started(id: "v-1")), .success(F.started(id: "v-2"))],
            outcomes: [.untilCancelled, .outcome(.success)])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        // The prompt is up when time runs out (after 115 s: the challenge's 120 s less the margin).
        _ = try await environment.next(.biometric)
        try await environment.fireTimers()
        #expect(try await environment.next(.expired).message == "验证已超时，请重新验证")
        #expect(await environment.timerSeconds.first == 115)

        // 重新验证.
        driver.send(.tapped(.retry))

        // The new verification passes by Face ID.
        #expect(await run.value.proofMethod == .biometric)
        #expect(await environment.startRequests == [F.withdrawal.request, F.withdrawal.request])
        #expect(await environment.attempts.map(\.verificationID) == ["v-2"])
    }

    @Test("A6 denied permission: 使用密码验证 and the fund password")
    func A6_permissionDenied() async throws {
        let environment = FakeVerificationEnvironment(
            starts: [.success(F.started())], outcomes: [], permission: false, attempts: [.success(F.passed)])
        let driver = VerificationDriver(
            flow: F.flow(F.device(.available(.faceID, permission: .notDetermined))), environment: environment)
        let run = Task { await driver.run() }

        // The explanation, then the system prompt.
        #expect(try await environment.next(.permissionExplanation).message == "需要使用相机进行面容识别验证")
        driver.send(.tapped(.continue))

        // Refused.
        #expect(try await environment.next(.permissionDenied).message == "无法使用Face ID，请在设置中开启相机权限")
        driver.send(.tapped(.openSettings))
        driver.send(.tapped(.usePassword))

        // The fund password passes.
        _ = try await environment.next(.fundPassword)
        driver.send(.submittedFundPassword(VerificationSecret("135790")))
        #expect(await run.value.proofMethod == .fundPassword)
        #expect(await environment.settingsOpened == 1)
        #expect(await environment.evaluationPrompts.isEmpty)
    }

    @Test("A7 a key that cannot sign: the password page")
    func A7_signingFailure() async throws {
        let environment = FakeVerificationEnvironment(
            starts: [.success(F.started())], outcomes: [.outcome(.success)], signingFails: true)
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        #expect(try await environment.next(.fundPassword).message == "Face ID不可用，请使用密码验证")

        driver.send(.tapped(.cancel))
        #expect(await run.value == .cancelled)
    }

    @Test("C11 an error that is not a server answer counts as the network")
    func C11_unknownErrorsAreNetwork() async throws {
        let environment = FakeVerificationEnvironment(starts: [.thrown], outcomes: [])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        #expect(try await environment.next(.startFailed).message == "网络连接失败，请重试")

        driver.send(.tapped(.cancel))
        #expect(await run.value == .cancelled)
    }

    @Test("AUTH_004 an expired session ends the flow as failed")
    func C11_sessionExpired() async throws {
        let environment = FakeVerificationEnvironment(starts: [.failure(.sessionExpired)], outcomes: [])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)

        #expect(await driver.run() == .failed(.sessionExpired))
        #expect(await environment.dismissals == [VerificationAnnouncement("登录已过期")])
    }
}

extension VerificationResult {
    fileprivate var proofMethod: VerificationMethodKind? {
        if case .succeeded(let proof) = self { return proof.method }
        return nil
    }
}
