// Issue 19 §2 on the verification page: a security hold answers the verification, and the page shows
// what is held, why, until when and a live countdown instead of any method. Synchronous narratives on
// the flow, with a clock the test moves.
import Foundation
import LatchClient
import LatchCore
import LatchTestSupport
import Testing

@Suite("Verification hold page (issue 19 §2)")
struct VerificationHoldTests {
    typealias F = VerificationFixtures

    /// 2026-11-26 12:00:00 in Shanghai is 04:00:00 UTC.
    static let startedAt = Date(timeIntervalSince1970: 1_795_665_600)
    static let holdUntil = startedAt.addingTimeInterval(24 * 3600)
    static let hold = VerificationHold(
        action: "withdrawal", reason: "password_reset", holdUntil: holdUntil, startedAt: startedAt)

    /// A started flow, its clock one second after the hold began.
    static func starting(language: LatchLanguage = .zhHans) -> (VerificationFlow, TestClock) {
        let clock = TestClock(startedAt.addingTimeInterval(1))
        var flow = VerificationFlow(
            context: F.withdrawal, device: F.device(), language: language,
            timeZone: TimeZone(identifier: "Asia/Shanghai")!, clock: clock.read)
        _ = flow.start()
        return (flow, clock)
    }

    @Test("19 §2 a hold answer shows the hold page instead of methods: what, why, until when, time left")
    func test_19_2_holdPageInsteadOfMethods() throws {
        var (flow, _) = Self.starting()

        // The server refuses to open the verification: withdrawals are held after a password reset.
        let action = flow.serverStartFailed(.securityHold(Self.hold))

        guard case .showCountdown(let screen) = action else {
            Issue.record("expected the hold page with its countdown, got \(action)")
            return
        }
        #expect(screen.kind == .securityHold)
        #expect(screen.title == "提现已暂停")
        #expect(screen.message == "为保障资金安全，安全设置变更后24小时内暂停提现")
        #expect(screen.detail == "原因：登录密码已重置")
        #expect(screen.input == nil)
        let countdown = try #require(screen.countdown)
        #expect(countdown.remaining == "剩余 23:59:59")
        #expect(countdown.until == "恢复时间：2026-11-27 12:00")
        #expect(countdown.endsAt == Self.holdUntil)
        // No method is offered: only the close button, which is the page's cancel.
        #expect(screen.buttons.map(\.id) == [.cancel])
        #expect(screen.buttons.first?.title == "关闭")
    }

    @Test("19 §2 the hold page in English")
    func test_19_2_holdPageInEnglish() throws {
        var (flow, _) = Self.starting(language: .en)

        let screen = try #require(flow.serverStartFailed(.securityHold(Self.hold)).screen)

        #expect(screen.title == "Withdrawals Paused")
        #expect(screen.message == "For your security, withdrawals are paused for 24 hours after a security change")
        #expect(screen.detail == "Why: your password was reset.")
        #expect(screen.countdown?.remaining == "23:59:59 left")
        #expect(screen.countdown?.until == "Available again: 2026-11-27 12:00")
        #expect(screen.buttons.first?.title == "Close")
    }

    @Test("19 §2 VoiceOver: the icon, the time left in words, the close button's hint, one announcement")
    func test_19_2_holdPageVoiceOver() throws {
        let (opened, clock) = Self.starting()
        var flow = opened
        let first = try #require(flow.serverStartFailed(.securityHold(Self.hold)).screen)

        #expect(first.icon.symbol == .hold)
        #expect(first.icon.accessibilityLabel == "暂停提示图标")
        // 23:59:59 left reads as whole minutes, rounded up.
        #expect(first.countdown?.accessibilityLabel == "剩余24小时")
        #expect(first.buttons.first?.accessibilityLabel == "关闭")
        #expect(first.buttons.first?.accessibilityHint == "关闭页面，操作不会执行")
        #expect(
            first.announcement.text
                == "为保障资金安全，安全设置变更后24小时内暂停提现，原因：登录密码已重置，恢复时间：2026-11-27 12:00")

        // An hour and a half later the label says so; the announcement stays the same (said once).
        clock.advance(by: 5400)
        let later = try #require(flow.holdCountdownTicked().screen)
        #expect(later.countdown?.accessibilityLabel == "剩余22小时30分钟")
        #expect(later.announcement == first.announcement)
    }

    @Test("19 §2 the countdown is live: each tick shows the time left by the injected clock")
    func test_19_2_countdownTicksByTheClock() {
        let (opened, clock) = Self.starting()
        var flow = opened
        _ = flow.serverStartFailed(.securityHold(Self.hold))

        // One second later.
        clock.advance(by: 1)
        let tick = flow.holdCountdownTicked()
        guard case .showCountdown(let screen) = tick else {
            Issue.record("expected the next countdown screen, got \(tick)")
            return
        }
        #expect(screen.countdown?.remaining == "剩余 23:59:58")

        // Nearly a day later: seconds are rounded up, never "0" while waiting.
        clock.advance(by: 24 * 3600 - 2.5)
        #expect(flow.holdCountdownTicked().screen?.countdown?.remaining == "剩余 0:00:01")
    }

    @Test("19 §2 the close button ends verify as a cancel: no token, the action is not carried out")
    func test_19_2_closeIsCancel() {
        var (flow, _) = Self.starting()
        _ = flow.serverStartFailed(.securityHold(Self.hold))

        let closed = flow.userTappedCancel()

        #expect(closed == .finish(.cancelled, announcement: VerificationAnnouncement("已取消验证")))
        // A tick scheduled before the close means nothing now.
        #expect(flow.holdCountdownTicked() == .none)
    }

    @Test("19 §2 when the hold ends the page offers 重新验证, which opens a new verification")
    func test_19_2_holdEndsThenStartAgain() {
        let (opened, clock) = Self.starting()
        var flow = opened
        _ = flow.serverStartFailed(.securityHold(Self.hold))

        // The hold's end passes while the page is open.
        clock.advance(by: 24 * 3600)
        let ended = flow.holdCountdownTicked()
        #expect(ended.screen?.kind == .expired)
        #expect(ended.screen?.message == "暂停已结束，请重新验证")
        #expect(ended.screen?.button(.retry)?.title == "重新验证")

        // Start Again asks the server once more.
        let again = flow.userTappedRetry()
        #expect(again == .startServerVerification(F.withdrawal.request, screen: again.screen!))
    }

    @Test("19 §2 a hold answered after the hold's end (a slow answer) goes straight to 重新验证")
    func test_19_2_holdAlreadyOver() {
        let (opened, clock) = Self.starting()
        var flow = opened
        clock.advance(by: 24 * 3600)

        let action = flow.serverStartFailed(.securityHold(Self.hold))

        #expect(action.screen?.kind == .expired)
    }

    @Test("19 §2 a hold that starts while an attempt is on its way shows the hold page too")
    func test_19_2_holdAnswersAnAttempt() {
        var (flow, _) = Self.starting()
        _ = flow.serverStarted(F.started(biometric: false, totp: false))
        _ = flow.userSubmittedFundPassword("135790")

        let action = flow.serverAttemptFailed(.securityHold(Self.hold))

        #expect(action.screen?.kind == .securityHold)
    }

    @Test("19 §2 the hold page has no method buttons: late taps, prompts and timers change nothing")
    func test_19_2_lateEventsOnTheHoldPage() {
        var (flow, _) = Self.starting()
        _ = flow.serverStartFailed(.securityHold(Self.hold))

        #expect(flow.userTappedRetry() == .none)
        #expect(flow.userTappedUsePassword() == .none)
        #expect(flow.userTappedOtherMethod() == .none)
        #expect(flow.userSubmittedFundPassword("135790") == .none)
        #expect(flow.biometricFinished(.success) == .none)
        #expect(flow.timedOut(verificationID: "v-1") == .none)
        // Still the hold page: the next tick counts down.
        #expect(flow.holdCountdownTicked().screen?.kind == .securityHold)
    }

    @Test("19 §2 without the hold's start, the page says paused without a length")
    func test_19_2_unknownLength() {
        var (flow, _) = Self.starting()
        var hold = Self.hold
        hold.startedAt = nil

        let screen = flow.serverStartFailed(.securityHold(hold)).screen

        #expect(screen?.message == "为保障资金安全，安全设置变更后暂停提现")
        #expect(
            VerificationStrings(.en).holdMessage("withdrawal", hours: nil)
                == "For your security, withdrawals are paused after a security change")
    }

    @Test("19 §2 a reason text for every SecurityHoldReason, distinct, in both languages")
    func test_19_2_reasonTextPerReason() {
        for language in [LatchLanguage.zhHans, .en] {
            let strings = VerificationStrings(language)
            let texts = SecurityHoldReason.allCases.map { strings.holdReason($0) }
            #expect(Set(texts).count == SecurityHoldReason.allCases.count)
            #expect(!texts.contains(strings.holdReason(nil)))
        }
        #expect(VerificationStrings(.zhHans).holdReason(.unfrozen) == "原因：账户已解冻")
        #expect(VerificationStrings(.en).holdReason(.passkeyAdded) == "Why: a passkey was added.")
    }

    @Test("19 §2 an unknown action is named as this action")
    func test_19_2_unknownActionName() {
        let strings = VerificationStrings(.en)
        #expect(strings.holdTitle("sign_contract") == "Action Paused")
        #expect(
            strings.holdMessage("sign_contract", hours: 1)
                == "For your security, this action is paused for 1 hour after a security change")
        #expect(VerificationStrings(.zhHans).holdTitle("sign_contract") == "此操作已暂停")
    }

    @Test("19 §2 SECURITY_HOLD answers become the hold failure; without hold_until, another failure")
    func test_19_2_failureFromTheAnswer() {
        let body = APIErrorBody(
            error: "SECURITY_HOLD", message: "paused",
            details: LatchErrorDetails(holdUntil: Self.holdUntil, reason: "totp_disabled", action: "withdrawal"))
        #expect(
            VerificationServerFailure(status: 403, body: body)
                == .securityHold(
                    VerificationHold(action: "withdrawal", reason: "totp_disabled", holdUntil: Self.holdUntil)))
        let bare = APIErrorBody(error: "SECURITY_HOLD", message: "paused")
        #expect(VerificationServerFailure(status: 403, body: bare) == .other(code: "SECURITY_HOLD"))
    }

    @Test("19 §2 the hold's start comes from the account's running holds")
    func test_19_2_startFromAccountSecurity() {
        let bare = VerificationHold(action: "withdrawal", reason: "password_reset", holdUntil: Self.holdUntil)
        let status = AccountSecurityStatus(
            holds: [
                SecurityHoldInfo(
                    actions: ["view_private_key"], reason: "passkey_added", startedAt: Self.startedAt,
                    holdUntil: Self.holdUntil.addingTimeInterval(3600)),
                SecurityHoldInfo(
                    actions: ["withdrawal"], reason: "password_reset", startedAt: Self.startedAt,
                    holdUntil: Self.holdUntil)
            ], antiPhishingCode: nil)

        let hold = bare.started(from: status)

        #expect(hold.startedAt == Self.startedAt)
        #expect(hold.hours == 24)
    }
}

@Suite("Verification hold page in the driver (issue 19 §2)", .timeLimit(.minutes(10)))
struct VerificationHoldDriverTests {
    typealias F = VerificationFixtures

    @Test("19 §2 the driver ticks the hold page's countdown every second; 关闭 ends verify as cancelled")
    func test_19_2_driverCountsDownTheHoldPage() async throws {
        let clock = TestClock(VerificationHoldTests.startedAt.addingTimeInterval(1))
        let environment = FakeVerificationEnvironment(
            starts: [.failure(.securityHold(VerificationHoldTests.hold))], outcomes: [])
        let flow = VerificationFlow(
            context: F.withdrawal, device: F.device(), language: .zhHans,
            timeZone: TimeZone(identifier: "Asia/Shanghai")!, clock: clock.read)
        let driver = VerificationDriver(flow: flow, environment: environment)
        let run = Task { await driver.run() }

        // The hold page, instead of any method.
        #expect(try await environment.next(.securityHold).countdown?.remaining == "剩余 23:59:59")

        // A second later the driver's tick moves the countdown.
        clock.advance(by: 1)
        try await environment.fireTimers()
        #expect(try await environment.next(.securityHold).countdown?.remaining == "剩余 23:59:58")

        // 关闭: cancelled, nothing verified, no attempt sent; the only timers were the one-second ticks.
        driver.send(.tapped(.cancel))
        #expect(await run.value == .cancelled)
        #expect(await environment.attempts.isEmpty)
        #expect(await environment.timerSeconds.allSatisfy { $0 == 1 })
        #expect(await environment.dismissals == [VerificationAnnouncement("已取消验证")])
    }
}
