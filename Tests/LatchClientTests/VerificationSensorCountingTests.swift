// Issue 11 §1: how the verification page counts attempts on real Face ID and Touch ID, the lockout's
// passcode prompt (B2 −8), Settings for −5 and −7, and the prompt's cancel title. First the flow alone
// (synchronous narratives), then the flow fed by SimulatedAuthenticator's real sequences.
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("Verification page on real sensors (issue 11 §1)")
struct VerificationSensorCountingTests {
    typealias F = VerificationFixtures

    // MARK: Counting

    @Test(
        "issue 11 A3 Face ID: a Cancel after a failed scan is a failed attempt; three reach the seed's three texts",
        arguments: [LatchLanguage.zhHans, .en])
    func test_11_1_faceIDCancelAfterFailedScanCounts(language: LatchLanguage) {
        var flow = F.evaluating(.faceID, language: language)
        let zh = language == .zhHans

        let first = flow.biometricFinished(.failedThenCancelled)
        #expect(first.screen?.message == (zh ? "第1/3次尝试失败" : "Attempt 1 of 3 failed."))
        #expect(first.screen?.detail == (zh ? "剩余2次尝试机会" : "2 attempts left."))
        #expect(flow.userTappedRetry().evaluatesBiometrics)

        let second = flow.biometricFinished(.failedThenCancelled)
        #expect(second.screen?.message == (zh ? "第2/3次尝试失败" : "Attempt 2 of 3 failed."))
        #expect(
            second.screen?.detail
                == (zh ? "剩余1次尝试机会，之后将使用密码验证" : "1 attempt left, then you will verify with your password."))
        #expect(flow.userTappedRetry().evaluatesBiometrics)

        let third = flow.biometricFinished(.failedThenCancelled)
        #expect(third.screen?.kind == .fundPassword)
        #expect(
            third.screen?.message
                == (zh
                    ? "Face ID验证失败次数过多，请使用密码验证" : "Too many failed Face ID attempts. Please verify with your password.")
        )
    }

    @Test("issue 11 A4 a Cancel with no failed scan is still the user's cancel: the page closes, nothing counted")
    func test_11_1_cancelWithoutFailedScanCancels() {
        var flow = F.evaluating(.faceID)

        let cancelled = flow.biometricFinished(.userCancel)

        #expect(cancelled.result == .cancelled)
    }

    @Test("issue 11 A3 Face ID: −8 after a counted failure shows the too-many text and goes to the password")
    func test_11_1_lockoutAfterCountedFailureIsTooMany() {
        var flow = F.evaluating(.faceID)
        _ = flow.biometricFinished(.failedThenCancelled)
        _ = flow.userTappedRetry()

        let locked = flow.biometricFinished(.lockout)

        #expect(locked.screen?.kind == .fundPassword)
        #expect(locked.screen?.message == "Face ID验证失败次数过多，请使用密码验证")
        #expect(locked.screen?.button(.unlockWithPasscode) == nil, "A3: biometrics are set aside for this page")
        #expect(locked.screen?.button(.useBiometrics) == nil)
    }

    @Test(
        "issue 11 A3 Touch ID: −1, a Cancel after a failed touch, then −8 in the third prompt reach the seed's three texts",
        arguments: [LatchLanguage.zhHans, .en])
    func test_11_1_touchIDReachesTheThreeTexts(language: LatchLanguage) {
        var flow = F.evaluating(.touchID, language: language)
        let zh = language == .zhHans

        #expect(flow.biometricFinished(.failed).screen?.message == (zh ? "第1/3次尝试失败" : "Attempt 1 of 3 failed."))
        _ = flow.userTappedRetry()
        #expect(
            flow.biometricFinished(.failedThenCancelled).screen?.detail
                == (zh ? "剩余1次尝试机会，之后将使用密码验证" : "1 attempt left, then you will verify with your password."))
        _ = flow.userTappedRetry()
        let locked = flow.biometricFinished(.failedThenLockedOut)

        #expect(locked.screen?.kind == .fundPassword)
        #expect(
            locked.screen?.message
                == (zh
                    ? "Touch ID验证失败次数过多，请使用密码验证"
                    : "Too many failed Touch ID attempts. Please verify with your password."))
    }

    @Test("issue 11 A3 the fifth consecutive failure inside the first prompt is too many as well")
    func test_11_1_lockoutInsideFirstPromptIsTooMany() {
        var flow = F.evaluating(.faceID)

        let locked = flow.biometricFinished(.failedThenLockedOut)

        #expect(locked.screen?.message == "Face ID验证失败次数过多，请使用密码验证")
    }

    // MARK: B2 −8: the passcode prompt

    @Test(
        "issue 11 B2 −8 before any failure on this page: password page with 输入设备密码解锁Face ID; the passcode brings Face ID back"
    )
    func test_11_1_lockoutOffersThePasscode() {
        var flow = F.evaluating(.faceID)

        // Locked by failures elsewhere: the password, and the passcode to unlock.
        let locked = flow.biometricFinished(.lockout)
        #expect(locked.screen?.kind == .fundPassword)
        #expect(locked.screen?.message == "Face ID已被锁定，请使用密码验证")
        let unlock = locked.screen?.button(.unlockWithPasscode)
        #expect(unlock?.title == "输入设备密码解锁Face ID")
        #expect(unlock?.accessibilityHint == "输入设备密码后可重新使用Face ID验证")

        // The tap asks for the device passcode, its Cancel in the SDK's language.
        #expect(
            flow.userTappedUnlockWithPasscode()
                == .unlockBiometricsWithPasscode(
                    VerificationPasscodePrompt(sensor: .faceID, localizedReason: "输入设备密码以解锁Face ID", cancelTitle: "取消"))
        )
        // A second tap while the prompt is up does nothing.
        #expect(flow.userTappedUnlockWithPasscode() == .none)

        // Not entered: the same page again, the button still there.
        let notEntered = flow.passcodeUnlockFinished(unlocked: false)
        #expect(notEntered == locked)

        // Entered: Face ID is evaluated again at once, with the full three attempts.
        _ = flow.userTappedUnlockWithPasscode()
        let unlocked = flow.passcodeUnlockFinished(unlocked: true)
        #expect(unlocked.evaluatesBiometrics)
        #expect(flow.biometricFinished(.failedThenCancelled).screen?.message == "第1/3次尝试失败")
    }

    @Test("issue 11 B2 a device locked out before the page opens: the password page offers the passcode too (en)")
    func test_11_1_lockedOutAtStartOffersThePasscode() {
        var flow = F.flow(F.device(.lockedOut(.touchID)), language: .en)
        _ = flow.start()

        let opened = flow.serverStarted(F.started())

        #expect(opened.screen?.kind == .fundPassword)
        #expect(opened.screen?.message == "Touch ID is locked. Please verify with your password.")
        #expect(opened.screen?.button(.unlockWithPasscode)?.title == "Unlock Touch ID with Passcode")
        #expect(
            flow.userTappedUnlockWithPasscode()
                == .unlockBiometricsWithPasscode(
                    VerificationPasscodePrompt(
                        sensor: .touchID, localizedReason: "Enter your passcode to unlock Touch ID.",
                        cancelTitle: "Cancel")))
        #expect(flow.passcodeUnlockFinished(unlocked: true).evaluatesBiometrics)
    }

    @Test("issue 11 B2 the verification times out while the passcode prompt is up: the prompt is taken down")
    func test_11_1_timeoutDuringPasscodePrompt() {
        var flow = F.evaluating(.faceID)
        _ = flow.biometricFinished(.lockout)
        _ = flow.userTappedUnlockWithPasscode()

        let expired = flow.timedOut(verificationID: "v-1")

        #expect(expired.cancelsBiometrics)
        #expect(expired.screen?.kind == .expired)
        #expect(flow.passcodeUnlockFinished(unlocked: true) == .none, "a late answer means nothing now")
    }

    @Test("issue 11 A4 取消 while the passcode prompt is up closes the page")
    func test_11_1_cancelDuringPasscodePrompt() {
        var flow = F.evaluating(.faceID)
        _ = flow.biometricFinished(.lockout)
        _ = flow.userTappedUnlockWithPasscode()

        #expect(flow.userTappedCancel().result == .cancelled)
    }

    @Test("issue 11 B2 locked out with nothing else to verify: the empty page still offers the passcode")
    func test_11_1_lockoutWithNoOtherMethod() {
        var flow = F.flow()
        _ = flow.start()
        _ = flow.serverStarted(F.started(totp: false, fundPassword: false))

        let locked = flow.biometricFinished(.lockout)

        #expect(locked.screen?.kind == .noMethodAvailable)
        #expect(locked.screen?.button(.unlockWithPasscode) != nil)
        _ = flow.userTappedUnlockWithPasscode()
        #expect(flow.passcodeUnlockFinished(unlocked: false).screen?.kind == .noMethodAvailable)
    }

    // MARK: −5 and −7: Settings

    @Test(
        "issue 11 B2 −5 and −7 (and Touch ID's −6): the password page offers 前往设置, which opens Settings",
        arguments: [
            (
                BiometricOutcome.passcodeNotSet, VerificationSensor.faceID, "未设置设备密码，无法使用Face ID，请使用密码验证",
                "打开系统设置，设置设备密码"
            ),
            (.notEnrolled, .faceID, "未设置Face ID，请使用密码验证", "打开系统设置，录入Face ID"),
            (.notEnrolled, .touchID, "未设置Touch ID，请使用密码验证", "打开系统设置，录入Touch ID"),
            (.permissionDenied, .touchID, "Touch ID不可用，请使用密码验证", "打开系统设置，开启Touch ID")
        ])
    func test_11_1_settingsLikeOutcomesOfferSettings(
        outcome: BiometricOutcome, sensor: VerificationSensor, message: String, hint: String
    ) {
        var flow = F.evaluating(sensor)

        let degraded = flow.biometricFinished(outcome)

        #expect(degraded.screen?.kind == .fundPassword)
        #expect(degraded.screen?.message == message)
        #expect(degraded.screen?.button(.openSettings)?.title == "前往设置")
        #expect(degraded.screen?.button(.openSettings)?.accessibilityHint == hint)
        #expect(flow.userTappedOpenSettings() == .openSettings)
    }

    @Test("issue 11 no Settings button where Settings cannot help (too many failures, a wrong fund password)")
    func test_11_1_noSettingsWhereItCannotHelp() {
        var flow = F.evaluating(.faceID)
        _ = flow.biometricFinished(.failedThenLockedOut)

        #expect(flow.userTappedOpenSettings() == .none)
        _ = flow.userSubmittedFundPassword("000000")
        let wrong = flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 4))
        #expect(wrong.screen?.button(.openSettings) == nil)
        #expect(flow.userTappedOpenSettings() == .none)
    }

    // MARK: The prompt's cancel title

    @Test("issue 11 the system prompt's cancel title is in the SDK's language", arguments: [LatchLanguage.zhHans, .en])
    func test_11_1_promptCancelTitleFollowsLanguage(language: LatchLanguage) {
        var fresh = F.flow(language: language)
        _ = fresh.start()
        let prompt = fresh.serverStarted(F.started()).prompt

        #expect(prompt?.cancelTitle == (language == .zhHans ? "取消" : "Cancel"))
    }

    // MARK: The page fed by the simulated sensor's real sequences

    /// Runs the page with `sensor`: each prompt's result is mapped as the SDK maps it, each retry screen
    /// answered with "再试一次", until the page leaves biometrics; returns every screen shown.
    static func run(
        _ sensor: SimulatedAuthenticator, kind: VerificationSensor, language: LatchLanguage
    ) async -> [VerificationScreen] {
        var flow = F.flow(F.device(.available(kind, permission: .granted)), language: language)
        _ = flow.start()
        var action = flow.serverStarted(F.started())
        var screens: [VerificationScreen] = []
        while true {
            if let screen = action.screen { screens.append(screen) }
            switch action {
            case .evaluateBiometrics(let prompt, _):
                let result = await sensor.evaluate(
                    reason: prompt.localizedReason, fallbackTitle: prompt.fallbackTitle, cancelTitle: prompt.cancelTitle
                )
                action = flow.biometricFinished(BiometricOutcome(result, sensor: kind))
            case .show(let screen) where screen.kind == .biometricRetry:
                action = flow.userTappedRetry()
            default:
                return screens
            }
        }
    }

    @Test(
        "issue 11 A3 real Face ID sequence (failed scans, then Cancel, three times): the seed's three texts, then the password",
        arguments: [LatchLanguage.zhHans, .en])
    func test_11_1_simulatedFaceIDReachesTheThreeTexts(language: LatchLanguage) async {
        let sensor = SimulatedAuthenticator(kind: .faceID)
        await sensor.enqueue(.noMatch, .cancel, .noMatch, .noMatch, .cancel, .noMatch, .cancel)

        let screens = await Self.run(sensor, kind: .faceID, language: language)

        let zh = language == .zhHans
        #expect(
            screens.compactMap { $0.kind == .biometricRetry ? $0.message : nil }
                == (zh ? ["第1/3次尝试失败", "第2/3次尝试失败"] : ["Attempt 1 of 3 failed.", "Attempt 2 of 3 failed."]))
        #expect(
            screens.compactMap { $0.kind == .biometricRetry ? $0.detail : nil }
                == (zh
                    ? ["剩余2次尝试机会", "剩余1次尝试机会，之后将使用密码验证"]
                    : ["2 attempts left.", "1 attempt left, then you will verify with your password."]))
        #expect(screens.last?.kind == .fundPassword)
        #expect(
            screens.last?.message
                == (zh
                    ? "Face ID验证失败次数过多，请使用密码验证" : "Too many failed Face ID attempts. Please verify with your password.")
        )
        #expect(await sensor.prompts.map(\.cancelTitle) == Array(repeating: zh ? "取消" : "Cancel", count: 3))
        #expect(await sensor.consecutiveFailures == 4)
    }

    @Test(
        "issue 11 A3 real Face ID sequence that locks out in the third prompt (fifth failed scan): the too-many text",
        arguments: [LatchLanguage.zhHans, .en])
    func test_11_1_simulatedFaceIDLockoutIsTooMany(language: LatchLanguage) async {
        let sensor = SimulatedAuthenticator(kind: .faceID)
        await sensor.enqueue(.noMatch, .noMatch, .cancel, .noMatch, .noMatch, .cancel, .noMatch)

        let screens = await Self.run(sensor, kind: .faceID, language: language)

        let zh = language == .zhHans
        #expect(screens.compactMap { $0.kind == .biometricRetry ? $0.message : nil }.count == 2)
        #expect(
            screens.last?.message
                == (zh
                    ? "Face ID验证失败次数过多，请使用密码验证" : "Too many failed Face ID attempts. Please verify with your password.")
        )
        #expect(await sensor.availability() == .unavailable(.lockedOut))
    }

    @Test(
        "issue 11 A3 real Touch ID sequence (three touches −1, a touch then Cancel, a touch −8): the seed's three texts",
        arguments: [LatchLanguage.zhHans, .en])
    func test_11_1_simulatedTouchIDReachesTheThreeTexts(language: LatchLanguage) async {
        let sensor = SimulatedAuthenticator(kind: .touchID)
        await sensor.enqueue(.noMatch, .noMatch, .noMatch, .noMatch, .cancel, .noMatch)

        let screens = await Self.run(sensor, kind: .touchID, language: language)

        let zh = language == .zhHans
        #expect(
            screens.compactMap { $0.kind == .biometricRetry ? $0.message : nil }
                == (zh ? ["第1/3次尝试失败", "第2/3次尝试失败"] : ["Attempt 1 of 3 failed.", "Attempt 2 of 3 failed."]))
        #expect(
            screens.compactMap { $0.kind == .biometricRetry ? $0.detail : nil }
                == (zh
                    ? ["剩余2次尝试机会", "剩余1次尝试机会，之后将使用密码验证"]
                    : ["2 attempts left.", "1 attempt left, then you will verify with your password."]))
        #expect(
            screens.last?.message
                == (zh
                    ? "Touch ID验证失败次数过多，请使用密码验证"
                    : "Too many failed Touch ID attempts. Please verify with your password."))
        #expect(await sensor.availability() == .unavailable(.lockedOut), "the fifth consecutive touch locked it")
    }

    @Test("issue 11 real Touch ID sequence without a Cancel: −1, then −8 two touches later shows too many (seed 003)")
    func A3_simulatedTouchIDLocksBeforeTheThirdAttempt() async {
        let sensor = SimulatedAuthenticator(kind: .touchID)
        await sensor.enqueue(.noMatch, .noMatch, .noMatch, .noMatch, .noMatch)

        let screens = await Self.run(sensor, kind: .touchID, language: .zhHans)

        #expect(screens.compactMap { $0.kind == .biometricRetry ? $0.message : nil } == ["第1/3次尝试失败"])
        #expect(screens.last?.message == "Touch ID验证失败次数过多，请使用密码验证")
    }
}
