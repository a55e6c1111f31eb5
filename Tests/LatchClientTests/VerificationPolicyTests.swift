// Issue 30 §3 on the verification page: the server's policy may ask for two factors of different kinds,
// refuse an action over a limit, lock a new value for a while, or offer a code mailed for the
// verification. Synchronous narratives on the flow, with a clock the test moves.
import Foundation
import LatchClient
import LatchCore
import LatchTestSupport
import Testing

@Suite("Verification policy pages (issue 30 §3)")
struct VerificationPolicyTests {
    typealias F = VerificationFixtures

    /// 2026-11-26 12:00:00 in Shanghai is 04:00:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_665_600)
    static let reason = VerificationReason(code: "amount_above", message: "单笔提现超过10000 USDT")

    static func flow(
        _ device: VerificationDeviceState = F.device(), language: LatchLanguage = .zhHans
    ) -> (VerificationFlow, TestClock) {
        let clock = TestClock(now)
        var flow = VerificationFlow(
            context: F.withdrawal, device: device, language: language,
            timeZone: TimeZone(identifier: "Asia/Shanghai")!, clock: clock.read)
        _ = flow.start()
        return (flow, clock)
    }

    /// The start answer of a policy asking for two factors, with its reason.
    static func twoFactors(_ started: VerificationStarted = F.started()) -> VerificationStarted {
        var started = started
        started.requiredFactors = 2
        started.reasons = [reason]
        return started
    }

    /// A start answer offering only the emailed code.
    static func emailOnly() -> VerificationStarted {
        var started = F.started(biometric: false, totp: false, fundPassword: false)
        started.methods = [VerificationMethodOffer(type: .emailCode)]
        started.preferred = .emailCode
        return started
    }

    // MARK: The second factor

    @Test("30 §3 after Face ID passes and another factor is needed: which passed, why, then only the remaining kinds")
    func test_30_3_secondStepAfterFaceID() throws {
        var (flow, _) = Self.flow()

        // The policy asks for two; the first page says so.
        let first = try #require(flow.serverStarted(Self.twoFactors()).screen)
        #expect(first.kind == .biometric)
        #expect(first.requirement == "需要两项验证：单笔提现超过10000 USDT")

        // Face ID passes on the device and on the server, which wants one more, by fund password only.
        _ = flow.biometricFinished(.success)
        let progress = VerificationProgress(
            remainingFactors: 1, passed: [.biometric], methods: [VerificationMethodOffer(type: .fundPassword)])
        let between = flow.serverAttemptNeedsAnotherFactor(progress)
        guard case .show(let screen) = between else {
            Issue.record("expected the page between the factors, got \(between)")
            return
        }
        #expect(screen.kind == .factorPassed)
        #expect(screen.message == "已通过面容验证，还需完成一项验证")
        #expect(screen.detail == "单笔提现超过10000 USDT")
        #expect(screen.buttons.map(\.id) == [.continue, .cancel])
        #expect(screen.announcement.text.hasPrefix("已通过面容验证，还需完成一项验证"))

        // "继续": the fund password, and nothing else (2FA is not among the open offers, Face ID passed).
        let next = try #require(flow.userTappedContinue().screen)
        #expect(next.kind == .fundPassword)
        #expect(next.button(.otherMethod) == nil)
        #expect(next.button(.useBiometrics) == nil)
        #expect(next.requirement == "需要两项验证：单笔提现超过10000 USDT")

        // The last factor passes: the proof, with the original context.
        guard case .submitFundPassword(let id, _, _) = flow.userSubmittedFundPassword("135790") else {
            Issue.record("expected the fund password to be sent")
            return
        }
        #expect(id == "v-1")
        let done = flow.serverAttemptSucceeded(F.passed)
        guard case .succeeded(let proof)? = done.result else {
            Issue.record("expected success, got \(done)")
            return
        }
        #expect(proof.method == .fundPassword)
        #expect(proof.context == F.withdrawal)
    }

    @Test("30 §3 English: the fund password first, then Face ID with the new challenge, counting its own 1/3")
    func test_30_3_secondStepInEnglishKeepsBiometricCount() throws {
        var (flow, _) = Self.flow(language: .en)
        let first = try #require(flow.serverStarted(Self.twoFactors()).screen)
        #expect(first.requirement == "Two verifications are needed. 单笔提现超过10000 USDT")
        _ = flow.userTappedUsePassword()
        _ = flow.userSubmittedFundPassword("135790")

        // The server offers a new biometric challenge for the second factor.
        let offer = VerificationMethodOffer(
            type: .biometric, credentialIds: [F.credentialID], challengeId: "ch-second", challenge: "challenge-second")
        let between = try #require(
            flow.serverAttemptNeedsAnotherFactor(
                VerificationProgress(remainingFactors: 1, passed: [.fundPassword], methods: [offer])
            ).screen)
        #expect(between.message == "Fund password passed. One more verification is needed.")
        #expect(between.buttons.map(\.title) == ["Continue", "Cancel"])

        // Face ID, whose failures count 1 of 3 as on a first page.
        #expect(flow.userTappedContinue().evaluatesBiometrics)
        #expect(flow.biometricFinished(.failed).screen?.message == "Attempt 1 of 3 failed.")
        _ = flow.userTappedRetry()
        guard case .submitBiometricSignature(let request, _) = flow.biometricFinished(.success) else {
            Issue.record("expected the signature to be sent")
            return
        }
        #expect(request.challengeID == "ch-second")
        #expect(request.challenge == "challenge-second")
    }

    @Test(
        "30 §3 a method the server does not count says so on the page (already_passed, not_offered), in both languages, instead of the generic server line; the page stays and keeps its ways out"
    )
    func test_30_3_methodRefusalsHaveTheirOwnLines() throws {
        for (language, passed, notOffered) in [
            (LatchLanguage.zhHans, "这项验证已通过，请完成另一项验证", "此操作不能使用该验证方式，请选择其他方式"),
            (
                .en, "This verification already passed. Complete another one.",
                "This method cannot verify this action. Choose another method."
            )
        ] {
            for (reason, line) in [("already_passed", passed), ("not_offered", notOffered)] {
                var (flow, _) = Self.flow(F.device(enabled: false), language: language)
                let first = try #require(flow.serverStarted(F.started(biometric: false)).screen)
                #expect(first.kind == .oneTimeCode)
                _ = flow.userSubmittedCode("123456")
                let failure = VerificationServerFailure(
                    status: 422,
                    body: APIErrorBody(
                        error: "VALIDATION_FAILED", message: "x",
                        details: LatchErrorDetails(field: "method", reasons: [reason])))
                #expect(failure == .methodRefused(VerificationMethodRefusal(rawValue: reason)!))
                let page = try #require(flow.serverAttemptFailed(failure).screen)
                #expect(page.kind == .oneTimeCode && page.message == line, "\(page.message)")
                #expect(page.button(.otherMethod) != nil, "another method stays one tap away")
            }
        }
        // Another field's 422 is still the generic line.
        let other = VerificationServerFailure(
            status: 422,
            body: APIErrorBody(
                error: "VALIDATION_FAILED", message: "x",
                details: LatchErrorDetails(field: "code", reasons: ["not_sent"])))
        #expect(other == .other(code: "VALIDATION_FAILED"))
    }

    @Test("30 §3 a time-out on the page between the factors offers a new verification")
    func test_30_3_timeOutBetweenFactors() {
        var (flow, _) = Self.flow()
        _ = flow.serverStarted(Self.twoFactors())
        _ = flow.biometricFinished(.success)
        _ = flow.serverAttemptNeedsAnotherFactor(
            VerificationProgress(remainingFactors: 1, passed: [.biometric], methods: [.init(type: .totp)]))

        let expired = flow.timedOut(verificationID: "v-1")

        #expect(expired.screen?.kind == .expired)
        #expect(expired.screen?.button(.retry) != nil)
    }

    // MARK: The limit

    static let limit = VerificationPolicyLimit(unit: "USDT", limit: "50000", remaining: "12000.5")

    @Test("30 §3 POLICY_LIMIT: the limit page instead of methods, with the limit and what is left, only Close")
    func test_30_3_policyLimitPage() throws {
        var (flow, _) = Self.flow()

        let screen = try #require(flow.serverStartFailed(.policyLimit(Self.limit)).screen)

        #expect(screen.kind == .policyLimit)
        #expect(screen.title == "已达提现限额")
        #expect(screen.message == "此操作将超出您过去24小时的限额，请减少金额或稍后再试")
        #expect(screen.detail == "限额：50000 USDT，剩余：12000.5 USDT")
        #expect(screen.input == nil)
        #expect(screen.buttons.map(\.id) == [.cancel])
        #expect(screen.buttons.first?.title == "关闭")
        #expect(screen.icon.accessibilityLabel == "限额图标")
        #expect(screen.announcement.text.contains("剩余：12000.5 USDT"))

        // "关闭" ends it as a cancel: no token.
        #expect(flow.userTappedCancel().result == .cancelled)
    }

    @Test("30 §3 POLICY_LIMIT in English, and from the error answer's details")
    func test_30_3_policyLimitInEnglish() throws {
        let failure = VerificationServerFailure(
            status: 403,
            body: APIErrorBody(
                error: "POLICY_LIMIT", message: "",
                details: LatchErrorDetails(unit: "USDT", limit: "50000", remaining: "12000.5")))
        #expect(failure == .policyLimit(Self.limit))
        var (flow, _) = Self.flow(language: .en)

        let screen = try #require(flow.serverStartFailed(failure).screen)

        #expect(screen.title == "Withdrawal Limit Reached")
        #expect(
            screen.message == "This would exceed your limit for the last 24 hours. Try a smaller amount or try later.")
        #expect(screen.detail == "Limit: 50000 USDT. Left: 12000.5 USDT.")
        #expect(screen.buttons.first?.title == "Close")
    }

    // MARK: The locked new value

    static let lock = VerificationNewValueLock(parameter: "address", lockedUntil: now.addingTimeInterval(3600))

    @Test("30 §3 NEW_VALUE_LOCKED: what, why, until when, a live countdown; Start Again once it is over")
    func test_30_3_newValueLockedPage() throws {
        var (flow, clock) = Self.flow()

        let action = flow.serverStartFailed(.newValueLocked(Self.lock))

        guard case .showCountdown(let screen) = action else {
            Issue.record("expected the lock page with its countdown, got \(action)")
            return
        }
        #expect(screen.kind == .newValueLocked)
        #expect(screen.title == "新地址暂不可用")
        #expect(screen.message == "为保障资金安全，新添加的地址需等待一段时间后才能使用")
        let countdown = try #require(screen.countdown)
        #expect(countdown.remaining == "剩余 1:00:00")
        #expect(countdown.until == "恢复时间：2026-11-26 13:00")
        #expect(countdown.accessibilityLabel == "剩余1小时")
        #expect(screen.buttons.map(\.id) == [.cancel])
        #expect(screen.buttons.first?.title == "关闭")

        // A second later the countdown moved.
        clock.advance(by: 1)
        #expect(flow.holdCountdownTicked().screen?.countdown?.remaining == "剩余 0:59:59")

        // The lock is over: a new verification may be opened.
        clock.advance(by: 3600)
        let over = try #require(flow.holdCountdownTicked().screen)
        #expect(over.kind == .expired)
        #expect(over.message == "等待期已结束，请重新验证")
        #expect(over.button(.retry) != nil)
        guard case .startServerVerification(let request, _) = flow.userTappedRetry() else {
            Issue.record("expected a new verification to be opened")
            return
        }
        #expect(request == F.withdrawal.request)
    }

    @Test("30 §3 NEW_VALUE_LOCKED in English, and from the error answer's details")
    func test_30_3_newValueLockedInEnglish() throws {
        let failure = VerificationServerFailure(
            status: 403,
            body: APIErrorBody(
                error: "NEW_VALUE_LOCKED", message: "",
                details: LatchErrorDetails(lockedUntil: Self.lock.lockedUntil, parameter: "address")))
        #expect(failure == .newValueLocked(Self.lock))
        var (flow, _) = Self.flow(language: .en)

        let screen = try #require(flow.serverStartFailed(failure).screen)

        #expect(screen.title == "New Address Not Yet Usable")
        #expect(screen.message == "For your security, a new address can be used only after a waiting period.")
        #expect(screen.countdown?.remaining == "1:00:00 left")
        #expect(screen.countdown?.until == "Available again: 2026-11-26 13:00")
        #expect(screen.buttons.first?.title == "Close")
    }

    // MARK: The emailed code

    @Test("30 §3 the emailed code: send, wait to resend, a wrong code counted, enter the code")
    func test_30_3_emailedCodePage() throws {
        var (flow, clock) = Self.flow(F.device(enabled: false))

        // Before a send: "发送验证码", no field.
        let first = try #require(flow.serverStarted(Self.emailOnly()).screen)
        #expect(first.kind == .emailCode)
        #expect(first.title == "邮箱验证码")
        #expect(first.message == "我们将向您的邮箱发送6位验证码")
        #expect(first.input == nil)
        #expect(first.buttons.map(\.id) == [.sendCode, .cancel])
        #expect(first.button(.sendCode)?.title == "发送验证码")

        // Sending.
        let busy = try sending(flow)
        #expect(busy.isBusy && busy.button(.sendCode)?.isEnabled == false)
        #expect(flow.userTappedSendCode() == .sendEmailCode(verificationID: "v-1", screen: busy))

        // Sent: the field, and the resend button waiting 60 s.
        let sent = flow.emailCodeSent()
        guard case .showAwaitingResend(let page, let seconds) = sent else {
            Issue.record("expected the code entry waiting to resend, got \(sent)")
            return
        }
        #expect(seconds == 60)
        #expect(page.message == "验证码已发送至您的邮箱，请输入6位验证码")
        #expect(page.input?.kind == .oneTimeCode(length: 6))
        #expect(page.button(.sendCode)?.isEnabled == false)
        #expect(page.button(.sendCode)?.title == "60秒后可重新发送")
        #expect(flow.userTappedSendCode() == .none)

        // A malformed code is refused on the page; a wrong one is counted by the server.
        #expect(flow.userSubmittedCode("12").screen?.message == "请输入6位数字验证码")
        guard case .submitEmailCode(_, let code, _) = flow.userSubmittedCode("123 456") else {
            Issue.record("expected the emailed code to be sent")
            return
        }
        #expect(code.value == "123456")
        clock.advance(by: 20)
        let wrong = flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 2))
        guard case .showAwaitingResend(let wrongPage, 40) = wrong else {
            Issue.record("expected the page again, 40 s to wait, got \(wrong)")
            return
        }
        #expect(wrongPage.message == "验证码错误")
        #expect(wrongPage.detail == "剩余2次尝试机会")

        // The wait is over: "重新发送".
        clock.advance(by: 40)
        let again = try #require(flow.emailCodeResendAvailable().screen)
        #expect(again.button(.sendCode)?.isEnabled == true)
        #expect(again.button(.sendCode)?.title == "重新发送")

        // Too soon after all (another device asked): the server's own wait.
        _ = flow.userTappedSendCode()
        guard case .showAwaitingResend(_, 30) = flow.emailCodeSendFailed(.rateLimited(retryAfter: 30)) else {
            Issue.record("expected the server's wait")
            return
        }

        // The right code.
        _ = flow.userSubmittedCode("654321")
        #expect(flow.serverAttemptSucceeded(F.passed).result != nil)
    }

    /// The busy screen while the code is being mailed, as the flow builds it (read back from a copy).
    private func sending(_ flow: VerificationFlow) throws -> VerificationScreen {
        var copy = flow
        return try #require(copy.userTappedSendCode().screen)
    }

    @Test("30 §3 the emailed code in English, with VoiceOver labels")
    func test_30_3_emailedCodeInEnglish() throws {
        var (flow, _) = Self.flow(F.device(enabled: false), language: .en)
        let first = try #require(flow.serverStarted(Self.emailOnly()).screen)
        #expect(first.title == "Email Code")
        #expect(first.message == "We’ll email you a 6-digit code.")
        #expect(first.button(.sendCode)?.title == "Send Code")
        #expect(first.button(.sendCode)?.accessibilityHint == "Emails you a 6-digit code for this verification.")
        #expect(first.icon.accessibilityLabel == "Email icon")
        _ = flow.userTappedSendCode()

        let page = try #require(flow.emailCodeSent().screen)

        #expect(page.message == "We emailed you a code. Enter its 6 digits.")
        #expect(page.button(.sendCode)?.title == "Resend in 60 s")
        #expect(page.button(.sendCode)?.accessibilityLabel == "Resend in 60 seconds")
        #expect(page.input?.accessibilityHint == "The 6-digit code from the email.")
    }

    @Test("30 §3 the emailed code's send fails like an attempt; 429 with retry_after reads as the wait")
    func test_30_3_emailedCodeSendFailures() {
        #expect(
            VerificationServerFailure(
                status: 429, body: APIErrorBody(error: "RATE_LIMITED", message: "", retryAfter: 42))
                == .rateLimited(retryAfter: 42))
        var (flow, _) = Self.flow(F.device(enabled: false))
        _ = flow.serverStarted(Self.emailOnly())
        _ = flow.userTappedSendCode()

        let offline = flow.emailCodeSendFailed(.network)

        #expect(offline.screen?.kind == .emailCode)
        #expect(offline.screen?.message == "网络连接失败，请重试")
        #expect(offline.screen?.button(.sendCode)?.isEnabled == true)
    }

    // MARK: Strings

    @Test("30 §3 the step line for each kind, in both languages")
    func test_30_3_stepStrings() {
        let zh = VerificationStrings(.zhHans)
        let en = VerificationStrings(.en)
        #expect(zh.factorPassed([.biometric], remaining: 1, sensor: .touchID) == "已通过指纹验证，还需完成一项验证")
        #expect(zh.factorPassed([.totp], remaining: 1, sensor: .faceID) == "已通过2FA验证，还需完成一项验证")
        #expect(zh.factorPassed([.emailCode], remaining: 1, sensor: .faceID) == "已通过邮箱验证码验证，还需完成一项验证")
        #expect(
            en.factorPassed([.biometric], remaining: 1, sensor: .faceID)
                == "Face ID passed. One more verification is needed.")
        #expect(
            en.factorPassed([.passkey], remaining: 1, sensor: .faceID)
                == "Passkey passed. One more verification is needed.")
        #expect(
            en.factorPassed([.totp, .passkey], remaining: 2, sensor: .faceID)
                == "Two-factor authentication and passkey passed. 2 more verifications are needed.")
        #expect(zh.requirement(factors: 1, reason: "x") == nil)
        #expect(zh.requirement(factors: 2, reason: nil) == "需要两项验证")
        #expect(en.requirement(factors: 2, reason: nil) == "Two verifications are needed.")
    }
}
