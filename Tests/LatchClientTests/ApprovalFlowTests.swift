import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 43 §3: the approval screen's decisions (`ApprovalFlow`), as synchronous narratives.
@Suite("Issue 43 §3: the approval model")
struct ApprovalFlowTests {
    static let link = ApprovalLink(approvalID: "ap-1", scanSecret: "scan")
    static let created = Date(timeIntervalSince1970: 1_780_000_000)
    static let signIn = SignInApprovalDetails(
        approvalId: "ap-1", clientName: "Chrome", clientPlatform: "macOS", deviceName: "MacBook", ip: "203.0.113.9",
        createdAt: created, expiresAt: created.addingTimeInterval(120), sameNetwork: false,
        numbers: ["17", "42", "85"])
    static let withdrawal = PhoneVerificationDetails(
        verificationId: "v-1", action: "withdrawal", parameters: ["amount": "100.00", "unit": "USDT"], amount: "100.00",
        unit: "USDT", target: "TXabc", state: .pending, expiresAt: created.addingTimeInterval(300),
        numbers: ["03", "42", "77"], methods: [VerificationMethodOffer(type: .biometric)])

    static func choosingSignIn(_ language: LatchLanguage = .en) -> ApprovalFlow {
        var flow = ApprovalFlow(subject: .signIn(link), language: language, timeZone: TimeZone(identifier: "UTC")!)
        _ = flow.start()
        _ = flow.loaded(.signIn(signIn))
        return flow
    }

    @Test("43.3 sign-in: loading, who asks and the numbers, the pick, Face ID, the decision, approved")
    func test_43_3_signInApproved() throws {
        var flow = ApprovalFlow(subject: .signIn(Self.link), language: .en, timeZone: TimeZone(identifier: "UTC")!)

        // The screen opens: load what asks.
        guard case .load(.signIn(Self.link), let loading) = flow.start() else { Issue.record("no load"); return }
        #expect(loading.kind == .loading)

        // Who asks, where, when, the network, and the three numbers.
        guard case .show(let screen) = flow.loaded(.signIn(Self.signIn)) else { Issue.record("no show"); return }
        #expect(screen.kind == .choosing)
        #expect(screen.message == "Is it you signing in on Chrome · macOS?")
        #expect(
            screen.details == [
                "Device: MacBook", "IP address: 203.0.113.9", "Time: 2026-05-28 20:26:40",
                "Not on this phone's network"
            ])
        #expect(screen.isWarning) // another network
        #expect(screen.numbers == ["17", "42", "85"])
        #expect(screen.buttons == [.number("17"), .number("42"), .number("85"), .deny, .notMe])

        // The user picks 42: the verification page for approve_sign_in bound to the approval id.
        guard case .verifySignIn(let context, "42", _) = flow.userPickedNumber("42") else {
            Issue.record("no verification")
            return
        }
        #expect(context.action == "approve_sign_in")
        #expect(context.parameters == ["approval_id": "ap-1"])

        // Face ID passed: the decision goes with the number and the token.
        #expect(
            flow.verificationFinished(.passed(token: "vt-1")).isSendApproval(Self.link, number: "42", token: "vt-1"))

        // Accepted.
        #expect(flow.decisionSent().end == .approved)
        #expect(flow.end == .approved)
    }

    @Test("43.3 a wrong number ends it for good, from the decision or from the page")
    func test_43_3_wrongNumber() {
        var flow = Self.choosingSignIn()
        _ = flow.userPickedNumber("17")
        _ = flow.verificationFinished(.passed(token: "vt-1"))

        let action = flow.decisionFailed(.wrongNumber)

        #expect(action.end == .wrongNumber)
        #expect(action.screen?.message == ApprovalStrings(.en).wrongNumber)
        // Nothing moves it afterwards.
        #expect(flow.userTappedDeny() == .none)
        #expect(flow.expired() == .none)

        var push = ApprovalFlow(subject: .verification(id: "v-1"), language: .en)
        _ = push.start()
        _ = push.loaded(.verification(Self.withdrawal))
        _ = push.userPickedNumber("03")
        #expect(push.verificationFinished(.wrongNumber).end == .wrongNumber)
    }

    @Test("43.3 a number that is not among the three is not taken; closing the page goes back to the numbers")
    func test_43_3_cancelReturnsToTheNumbers() {
        var flow = Self.choosingSignIn()

        guard case .show(let again) = flow.userPickedNumber("99") else { Issue.record("not shown again"); return }
        #expect(again.kind == .choosing)

        _ = flow.userPickedNumber("42")
        guard case .show(let back) = flow.verificationFinished(.cancelled) else { Issue.record("no numbers"); return }
        #expect(back.kind == .choosing)
        // Still decidable.
        #expect(flow.userTappedDeny() == .sendDenial(.signIn(Self.link), screen: Self.busy(.signIn)))
    }

    @Test("43.3 deny sends the denial and ends denied")
    func test_43_3_deny() {
        var flow = Self.choosingSignIn()

        #expect(flow.userTappedDeny() == .sendDenial(.signIn(Self.link), screen: Self.busy(.signIn)))
        #expect(flow.userPickedNumber("42") == .none) // a late tap

        #expect(flow.denialSent().end == .denied)
    }

    @Test("43.3 \"this wasn't me\" freezes the account; a failed freeze goes back with the reason")
    func test_43_3_notMeFreezes() {
        var flow = Self.choosingSignIn(.zhHans)

        #expect(flow.userTappedNotMe() == .freezeAccount(screen: Self.busy(.signIn, .zhHans)))
        guard case .show(let screen) = flow.freezeFailed(.other(message: "无法连接服务器")) else {
            Issue.record("not back")
            return
        }
        #expect(screen.message == "无法连接服务器")
        #expect(screen.numbers == ["17", "42", "85"])

        _ = flow.userTappedNotMe()
        let frozen = flow.accountFrozen()
        #expect(frozen.end == .frozen)
        #expect(frozen.screen?.message == "账号已冻结，所有设备均已退出登录")
    }

    @Test("43.3 it expires while choosing or on the page, but not while a decision is on its way")
    func test_43_3_expiry() {
        var choosing = Self.choosingSignIn()
        #expect(choosing.expired().end == .expired)

        var verifying = Self.choosingSignIn()
        _ = verifying.userPickedNumber("42")
        #expect(verifying.expired().end == .expired)
        // The page's late answer changes nothing.
        #expect(verifying.verificationFinished(.passed(token: "vt")) == .none)

        var deciding = Self.choosingSignIn()
        _ = deciding.userPickedNumber("42")
        _ = deciding.verificationFinished(.passed(token: "vt"))
        #expect(deciding.expired() == .none)
        #expect(deciding.decisionFailed(.gone).end == .expired)
    }

    @Test("43.3 a request that is gone when loaded, or no longer pending, is expired")
    func test_43_3_goneOnLoad() {
        var gone = ApprovalFlow(subject: .signIn(Self.link), language: .en)
        _ = gone.start()
        #expect(gone.loadFailed(.gone).end == .expired)

        var decided = ApprovalFlow(subject: .verification(id: "v-1"), language: .en)
        _ = decided.start()
        var approved = Self.withdrawal
        approved.state = .approved
        #expect(decided.loaded(.verification(approved)).end == .expired)
    }

    @Test("43.3 push: the action, amount and address, the pick runs the page over that verification, approved")
    func test_43_3_pushApproved() {
        var flow = ApprovalFlow(subject: .verification(id: "v-1"), language: .zhHans)
        #expect(flow.start().isLoad(.verification(id: "v-1")))

        guard case .show(let screen) = flow.loaded(.verification(Self.withdrawal)) else {
            Issue.record("no show"); return
        }
        #expect(screen.title == "操作确认")
        #expect(screen.message == "是您本人发起的提现吗？")
        #expect(screen.details == ["金额：100.00 USDT", "地址：TXabc"])
        #expect(screen.numbers == ["03", "42", "77"])

        #expect(
            flow.userPickedNumber("42")
                == .verifyOnPhone(Self.withdrawal, number: "42", screen: Self.busy(.verification, .zhHans)))
        // The server counted the phone's pass: no token here, approved.
        let end = flow.verificationFinished(.passed(token: nil))
        #expect(end.end == .approved)
        #expect(end.screen?.message == "已批准该操作")
    }

    @Test("43.3 push: without the server's amount and target, the action's parameters say them")
    func test_43_3_pushParametersShown() {
        var flow = ApprovalFlow(subject: .verification(id: "v-1"), language: .en)
        _ = flow.start()
        var details = Self.withdrawal
        (details.amount, details.unit, details.target) = (nil, nil, nil)
        details.parameters = ["amount": "5.00", "currency": "BTC", "address": "bc1q"]

        #expect(flow.loaded(.verification(details)).screen?.details == ["Amount: 5.00 BTC", "To: bc1q"])
    }

    @Test("43.3 the strings speak zh-Hans and English")
    func test_43_3_strings() {
        #expect(ApprovalStrings(.zhHans).signInQuestion(client: "Chrome", platform: nil) == "是您本人在 Chrome 上登录吗？")
        #expect(ApprovalStrings(.en).signInQuestion(client: nil, platform: nil) == "Is it you signing in?")
        #expect(ApprovalStrings(.zhHans).network(same: true) == "与本机处于同一网络")
        #expect(ApprovalStrings(.en).pickNumber == "Pick the number shown on the other screen.")
        #expect(ApprovalStrings(.zhHans).notMe == "不是我本人操作，冻结账号")
    }

    @Test("43.3 a verification page that cannot go on ends the screen without approving; close before deciding")
    func test_43_3_pageFailureAndClose() {
        var failed = Self.choosingSignIn()
        _ = failed.userPickedNumber("42")
        #expect(failed.verificationFinished(.failed).end == .failed(message: ApprovalStrings(.en).verificationFailed))

        var closed = Self.choosingSignIn()
        #expect(closed.userTappedClose().end == .closed)
        #expect(closed.userPickedNumber("42") == .none)
    }

    // MARK: - Helpers

    enum Kind { case signIn, verification }

    static func busy(_ kind: Kind, _ language: LatchLanguage = .en) -> ApprovalScreen {
        let strings = ApprovalStrings(language)
        return ApprovalScreen(
            kind: .busy, title: kind == .signIn ? strings.signInTitle : strings.actionTitle, message: strings.sending)
    }
}

extension ApprovalFlow.Action {
    var end: ApprovalEnd? {
        guard case .finish(let end, _) = self else { return nil }
        return end
    }

    var screen: ApprovalScreen? {
        switch self {
        case .load(_, let screen), .show(let screen), .verifySignIn(_, _, let screen),
            .verifyOnPhone(_, _, let screen), .sendApproval(_, _, _, let screen), .sendDenial(_, let screen),
            .freezeAccount(let screen), .finish(_, let screen):
            return screen
        case .none:
            return nil
        }
    }

    func isSendApproval(_ link: ApprovalLink, number: String, token: String) -> Bool {
        guard case .sendApproval(link, number, token, _) = self else { return false }
        return true
    }

    func isLoad(_ subject: ApprovalSubject) -> Bool {
        guard case .load(subject, _) = self else { return false }
        return true
    }
}
