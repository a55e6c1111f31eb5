// Issue 13 §2: passkey on the verification page, as synchronous narratives.
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("Verification flow: passkey (issue 13 §2)")
struct PasskeyVerificationFlowTests {
    typealias F = VerificationFixtures

    /// A flow on a device without biometric sign-in whose passkey sheet is up.
    static func asserting(
        _ started: VerificationStarted = F.withPasskey(F.started()), language: LatchLanguage = .zhHans
    )
        -> VerificationFlow
    {
        var flow = F.flow(F.device(enabled: false), language: language)
        _ = flow.start()
        _ = flow.serverStarted(started, devicePasskey: true)
        return flow
    }

    @Test func test_I13_passkeyStartsAtOnceWithTheOffersOptionsWhenBiometricsAreNotEnabled() {
        var flow = F.flow(F.device(enabled: false))
        _ = flow.start()
        let started = F.withPasskey(F.started())

        let action = flow.serverStarted(started, devicePasskey: true)

        guard case .getPasskeyAssertion(let options, let screen) = action else {
            Issue.record("expected the passkey sheet, got \(action)")
            return
        }
        #expect(options == F.passkeyOffer(for: started).options)
        #expect(screen.kind == .passkey && screen.isBusy)
        #expect(screen.title == "通行密钥")
        #expect(screen.buttonIDs == [.cancel])
    }

    @Test func test_I13_biometricsStayFirstAndTheCodePageOffersThePasskey() {
        var flow = F.flow()
        _ = flow.start()

        let first = flow.serverStarted(F.withPasskey(F.started()), devicePasskey: true)
        #expect(first.evaluatesBiometrics)

        let code = flow.userTappedOtherMethod()
        #expect(code.screen?.kind == .oneTimeCode)
        #expect(code.screen?.button(.usePasskey)?.title == "使用通行密钥验证")

        guard case .getPasskeyAssertion = flow.userTappedUsePasskey() else {
            Issue.record("使用通行密钥验证 opens the sheet")
            return
        }
    }

    @Test func test_I13_aDeviceWithoutAPasskeyIsNotOfferedOne() {
        var flow = F.flow(F.device(enabled: false))
        _ = flow.start()

        let action = flow.serverStarted(F.withPasskey(F.started()), devicePasskey: false)

        #expect(action.screen?.kind == .oneTimeCode)
        #expect(action.screen?.button(.usePasskey) == nil)
        #expect(flow.userTappedUsePasskey() == .none)
    }

    @Test func test_I13_anOfferWithoutOptionsIsIgnored() {
        var flow = F.flow(F.device(enabled: false))
        _ = flow.start()
        var started = F.started()
        started.methods.append(VerificationMethodOffer(type: .passkey, challengeId: "pc-1", challenge: "c"))

        #expect(flow.serverStarted(started, devicePasskey: true).screen?.kind == .oneTimeCode)
    }

    @Test func test_I13_anAssertionIsSentAsAPasskeyAttemptAndPassesWithTheToken() throws {
        var flow = Self.asserting()

        let sent = flow.passkeyAssertionFinished(.asserted(F.passkeyAssertion))
        #expect(
            sent
                == .submitPasskeyAssertion(
                    verificationID: "v-1", credential: F.passkeyAssertion, screen: try #require(sent.screen)))
        #expect(sent.screen?.isBusy == true)

        let done = flow.serverAttemptSucceeded(F.passed)
        guard case .succeeded(let proof)? = done.result else {
            Issue.record("expected success, got \(done)")
            return
        }
        #expect(proof.token == "vt-123")
        #expect(proof.method == .passkey)
        #expect(proof.context == F.withdrawal)
    }

    @Test func test_I13_aClosedSheetWaitsOnThePasskeyPageWithTheOtherMethods() {
        var flow = Self.asserting()

        let page = flow.passkeyAssertionFinished(.cancelled)

        #expect(page.screen?.kind == .passkey)
        #expect(page.screen?.isBusy == false)
        #expect(page.screen?.message == "未使用通行密钥，可重试或使用其他方式验证")
        #expect(page.screen?.buttonIDs == [.usePasskey, .usePassword, .otherMethod, .cancel])
        #expect(page.screen?.button(.usePasskey)?.role == .primary)
        #expect(flow.userTappedUsePassword().screen?.kind == .fundPassword)
    }

    @Test func test_I13_tryingThePasskeyAgainOpensTheSheetAgain() {
        var flow = Self.asserting()
        _ = flow.passkeyAssertionFinished(.failed)

        guard case .getPasskeyAssertion = flow.userTappedUsePasskey() else {
            Issue.record("使用通行密钥验证 opens the sheet again")
            return
        }
        #expect(flow.userTappedUsePasskey() == .none) // a double tap while the sheet is up
    }

    @Test func test_I13_aRefusedAssertionSaysSoWithTheAttemptsLeft() {
        var flow = Self.asserting()
        _ = flow.passkeyAssertionFinished(.asserted(F.passkeyAssertion))

        let page = flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 2))

        #expect(page.screen?.kind == .passkey)
        #expect(page.screen?.message == "通行密钥验证未通过")
        #expect(page.screen?.detail == "剩余2次尝试机会")
        #expect(page.screen?.tone == .warning)
    }

    @Test func test_I13_theLastRefusedAttemptExpiresTheVerification() {
        var flow = Self.asserting()
        _ = flow.passkeyAssertionFinished(.asserted(F.passkeyAssertion))

        #expect(flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 0)).screen?.kind == .expired)
    }

    @Test func test_I13_anEndedSessionFailsTheFlow() {
        var flow = Self.asserting()
        _ = flow.passkeyAssertionFinished(.asserted(F.passkeyAssertion))

        #expect(flow.serverAttemptFailed(.sessionExpired).result == .failed(.sessionExpired))
    }

    @Test func test_I13_timingOutWhileTheSheetIsUpExpiresAndDropsTheLateAssertion() {
        var flow = Self.asserting()

        #expect(flow.timedOut(verificationID: "v-1").screen?.kind == .expired)
        #expect(flow.passkeyAssertionFinished(.asserted(F.passkeyAssertion)) == .none)
    }

    @Test func test_I13_cancelWhileTheAssertionIsCheckedDropsTheToken() {
        var flow = Self.asserting()
        _ = flow.passkeyAssertionFinished(.asserted(F.passkeyAssertion))

        #expect(flow.userTappedCancel().result == .cancelled)
        #expect(flow.serverAttemptSucceeded(F.passed) == .none)
    }

    @Test func test_I13_passkeyAloneStillLeavesCancel() {
        var flow = Self.asserting(F.withPasskey(F.started(biometric: false, totp: false, fundPassword: false)))

        let page = flow.passkeyAssertionFinished(.cancelled)

        #expect(page.screen?.buttonIDs == [.usePasskey, .cancel])
    }

    @Test func test_I13_thePasskeyPageSpeaksEnglish() {
        var flow = Self.asserting(language: .en)

        let page = flow.passkeyAssertionFinished(.failed)

        #expect(page.screen?.title == "Passkey")
        #expect(page.screen?.message == "The passkey could not be used. Try again or verify another way.")
        #expect(page.screen?.button(.usePasskey)?.title == "Verify with Passkey")
        #expect(page.screen?.icon.accessibilityLabel == "Passkey icon")
    }
}
