// The step-up verification flow (SPEC A1–A8, seed CW-023 FR-023-01…06) as synchronous narratives:
// one event per step, one expectation per step.
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("Verification flow (A1–A8, FR-023-01…06)")
struct VerificationFlowTests {
    typealias F = VerificationFixtures

    // MARK: A1 / FR-023-01 — verification opens by itself, biometrics first

    @Test("A1 FR-023-01 a sensitive action opens verification and Face ID starts at once")
    func A1_FR_023_01_biometricsStartAtOnce() {
        var flow = F.flow()

        // The action asks for verification: the page opens and the server is asked first.
        let start = flow.start()
        #expect(start == .startServerVerification(F.withdrawal.request, screen: start.screen!))
        #expect(start.screen?.kind == .preparing)

        // The server offers biometrics for this device: evaluation starts without a tap.
        let offered = flow.serverStarted(F.started())
        #expect(
            offered.prompt
                == VerificationBiometricPrompt(
                    sensor: .faceID, localizedReason: "使用面容ID进行验证", fallbackTitle: "使用密码验证", cancelTitle: "取消"))
        #expect(offered.screen?.title == "Face ID")
    }

    @Test("A1 the caller's operation description is the prompt's reason (seed §5.1)")
    func A1_callerDescriptionIsThePromptReason() {
        var context = F.withdrawal
        context.localizedReason = "确认提现 100 USDT"
        var flow = F.flow(context: context)
        _ = flow.start()

        let action = flow.serverStarted(F.started())

        #expect(action.prompt?.localizedReason == "确认提现 100 USDT")
    }

    @Test("A1 biometrics not enabled on this device: 2FA first, no prompt")
    func A1_notEnabledStartsWith2FA() {
        var flow = F.flow(F.device(enabled: false))
        _ = flow.start()

        let action = flow.serverStarted(F.started())

        #expect(action.screen?.kind == .oneTimeCode)
    }

    @Test("A1 biometrics not enabled and no 2FA: the fund password first")
    func A1_notEnabledWithout2FAStartsWithFundPassword() {
        var flow = F.flow(F.device(enabled: false))
        _ = flow.start()

        let action = flow.serverStarted(F.started(totp: false))

        #expect(action.screen?.kind == .fundPassword)
    }

    @Test("A1 a key the server no longer lists is not enabled: no prompt")
    func A1_unlistedKeyIsNotEnabled() {
        var flow = F.flow()
        _ = flow.start()

        let action = flow.serverStarted(F.started(credentialIDs: ["another-device"]))

        #expect(action.screen?.kind == .oneTimeCode)
    }

    // MARK: A2 / FR-023-02 — success continues the action

    @Test("A2 FR-023-02 success closes the page with the token and the original context")
    func A2_FR_023_02_successReturnsTokenAndContext() throws {
        var flow = F.evaluating()

        // The face matches: the device key signs this verification's challenge.
        let matched = flow.biometricFinished(.success)
        guard case .submitBiometricSignature(let request, let screen) = matched else {
            Issue.record("expected a signature, got \(matched)")
            return
        }
        #expect(screen.kind == .biometricChecking)

        // The signature is bound to the action and its parameters (A11, D3).
        let expected = try SignedMessage.verification(
            action: "withdrawal", parameters: F.withdrawal.parameters, challengeID: "ch-v-1", challenge: "challenge-v-1"
        )
        #expect(try request.message() == expected)

        // The server accepts it: the page closes with the token and the untouched context.
        let done = flow.serverAttemptSucceeded(F.passed)
        #expect(
            done
                == .finish(
                    .succeeded(
                        VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .biometric)),
                    announcement: VerificationAnnouncement("验证成功")))
    }

    @Test("A2 the signed attempt names this device's key")
    func A2_attemptNamesTheDeviceKey() {
        var flow = F.evaluating()

        let action = flow.biometricFinished(.success)

        guard case .submitBiometricSignature(let request, _) = action else {
            Issue.record("expected a signature, got \(action)")
            return
        }
        #expect(
            request.attempt(signature: "sig")
                == VerificationAttempt(
                    method: .biometric, credentialId: F.credentialID, signature: "sig"))
    }

    // MARK: A3 / FR-023-03 — three attempts, exact messages

    @Test("A3 FR-023-03-1 the first failure shows 第1/3次尝试失败 with 再试一次")
    func A3_FR_023_03_1_firstFailureShowsOneOfThree() {
        var flow = F.evaluating()

        let screen = flow.biometricFinished(.failed).screen

        #expect(screen?.message == "第1/3次尝试失败")
        #expect(screen?.button(.retry)?.title == "再试一次")
    }

    @Test("A3 FR-023-03-2 the first failure says 剩余2次尝试机会")
    func A3_FR_023_03_2_firstFailureShowsTwoRemaining() {
        var flow = F.evaluating()

        let screen = flow.biometricFinished(.failed).screen

        #expect(screen?.detail == "剩余2次尝试机会")
    }

    @Test("A3 FR-023-03-3 the second failure says 剩余1次尝试机会，之后将使用密码验证")
    func A3_FR_023_03_3_secondFailureWarnsOfPassword() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)

        // Try again.
        #expect(flow.userTappedRetry().evaluatesBiometrics)

        // The second failure.
        let screen = flow.biometricFinished(.failed).screen
        #expect(screen?.message == "第2/3次尝试失败")
        #expect(screen?.detail == "剩余1次尝试机会，之后将使用密码验证")
        #expect(screen?.button(.retry)?.title == "再试一次")
    }

    @Test("A3 FR-023-03-4 the third failure switches to password verification by itself")
    func A3_FR_023_03_4_thirdFailureSwitchesToPassword() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()

        // The third failure: no retry, the password page with the seed's message.
        let action = flow.biometricFinished(.failed)
        #expect(action.screen?.kind == .fundPassword)
        #expect(action.screen?.message == "Face ID验证失败次数过多，请使用密码验证")
        #expect(action.screen?.button(.retry) == nil)

        // Biometrics are not offered again in this flow.
        #expect(action.screen?.button(.useBiometrics) == nil)
    }

    @Test("A3 the Touch ID variant names Touch ID")
    func A3_touchIDVariant() {
        var flow = F.evaluating(.touchID)
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()

        let screen = flow.biometricFinished(.failed).screen

        #expect(screen?.message == "Touch ID验证失败次数过多，请使用密码验证")
    }

    @Test("A3 without a fund password the third failure goes to 2FA")
    func A3_withoutFundPasswordThirdFailureGoesTo2FA() {
        var flow = F.evaluating(fundPassword: false)
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()

        // The warning names where the flow will go.
        #expect(flow.biometricFinished(.failed).screen?.detail == "剩余1次尝试机会，之后将使用其他方式验证")

        // The third failure.
        _ = flow.userTappedRetry()
        let screen = flow.biometricFinished(.failed).screen
        #expect(screen?.kind == .oneTimeCode)
        #expect(screen?.message == "Face ID验证失败次数过多，请使用其他方式验证")
    }

    @Test("A3 with no other method the third failure leaves only 取消")
    func A3_withNoOtherMethodOnlyCancelRemains() {
        var flow = F.evaluating(totp: false, fundPassword: false)
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()

        let screen = flow.biometricFinished(.failed).screen

        #expect(screen?.kind == .noMethodAvailable)
        #expect(screen?.buttonIDs == [.cancel])
    }

    @Test("A3 failures keep counting across a switch to 2FA and back")
    func A3_failuresCountAcrossMethodSwitches() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)

        // To 2FA, then back to Face ID from the code page.
        #expect(flow.userTappedOtherMethod().screen?.kind == .oneTimeCode)
        #expect(flow.userTappedUseBiometrics().evaluatesBiometrics)

        // The next failure is the second.
        #expect(flow.biometricFinished(.failed).screen?.message == "第2/3次尝试失败")
    }

    // MARK: A4 / FR-023-04 — cancel: the action is not executed

    @Test("A4 FR-023-04 取消 closes the page with no token")
    func A4_FR_023_04_cancelFinishesWithoutToken() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)

        let action = flow.userTappedCancel()

        #expect(action == .finish(.cancelled, announcement: VerificationAnnouncement("已取消验证")))
    }

    @Test("A4 the system prompt's 取消 is the page's cancel")
    func A4_promptCancelIsPageCancel() {
        var flow = F.evaluating()

        let action = flow.biometricFinished(.userCancel)

        #expect(action.result == .cancelled)
    }

    @Test("A4 a success answer arriving after cancel is dropped: no token")
    func A4_cancelWhileAttemptInFlightDropsTheToken() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.success)

        // The user cancels while the server checks the signature.
        #expect(flow.userTappedCancel().result == .cancelled)

        // The server's success arrives late: nothing happens, no token leaves the flow.
        #expect(flow.serverAttemptSucceeded(F.passed) == .none)
    }

    @Test("A4 cancel from every page yields .cancelled, never a token")
    func A4_cancelFromEveryPageNeverYieldsAToken() {
        var pages: [(String, VerificationFlow)] = []
        var preparing = F.flow()
        _ = preparing.start()
        pages.append(("preparing", preparing))
        var explaining = F.flow(F.device(.available(.faceID, permission: .notDetermined)))
        _ = explaining.start()
        _ = explaining.serverStarted(F.started())
        pages.append(("explanation", explaining))
        var denied = F.flow(F.device(.available(.faceID, permission: .denied)))
        _ = denied.start()
        _ = denied.serverStarted(F.started())
        pages.append(("denied", denied))
        pages.append(("evaluating", F.evaluating()))
        var retry = F.evaluating()
        _ = retry.biometricFinished(.failed)
        pages.append(("retry", retry))
        var code = F.evaluating()
        _ = code.userTappedOtherMethod()
        pages.append(("code", code))
        var submitted = F.evaluating()
        _ = submitted.userTappedUsePassword()
        _ = submitted.userSubmittedFundPassword("135790")
        pages.append(("fund password sent", submitted))
        var expired = F.evaluating()
        _ = expired.timedOut(verificationID: "v-1")
        pages.append(("expired", expired))
        var failedStart = F.flow()
        _ = failedStart.start()
        _ = failedStart.serverStartFailed(.network)
        pages.append(("start failed", failedStart))

        for (name, flow) in pages {
            var flow = flow
            #expect(flow.userTappedCancel().result == .cancelled, "\(name)")
        }
    }

    // MARK: A5 / FR-023-05 — another method at any time

    @Test("A5 FR-023-05-1 使用其他方式验证 is on every biometric page")
    func A5_FR_023_05_1_otherMethodAlwaysOffered() {
        var flow = F.flow()
        _ = flow.start()

        // While the prompt is up.
        #expect(flow.serverStarted(F.started()).screen?.button(.otherMethod)?.title == "使用其他方式验证")

        // After a failure.
        #expect(flow.biometricFinished(.failed).screen?.button(.otherMethod)?.title == "使用其他方式验证")

        // After an interruption.
        _ = flow.userTappedRetry()
        #expect(flow.biometricFinished(.systemCancel).screen?.button(.otherMethod)?.title == "使用其他方式验证")

        // On the permission explanation and the denial.
        var explaining = F.flow(F.device(.available(.faceID, permission: .notDetermined)))
        _ = explaining.start()
        #expect(explaining.serverStarted(F.started()).screen?.button(.otherMethod) != nil)
        _ = explaining.userTappedContinue()
        #expect(explaining.permissionPromptAnswered(granted: false).screen?.button(.otherMethod) != nil)
    }

    @Test("A5 FR-023-05-2 with 2FA bound, 使用其他方式验证 goes to the 2FA page (and stops the prompt)")
    func A5_FR_023_05_2_otherMethodGoesTo2FA() {
        var flow = F.evaluating()

        let action = flow.userTappedOtherMethod()

        #expect(action.cancelsBiometrics)
        #expect(action.screen?.kind == .oneTimeCode)
    }

    @Test("A5 FR-023-05-3 without 2FA, 使用其他方式验证 goes to the fund-password page")
    func A5_FR_023_05_3_otherMethodGoesToFundPassword() {
        var flow = F.evaluating(totp: false)
        _ = flow.biometricFinished(.failed)

        let action = flow.userTappedOtherMethod()

        #expect(action.screen?.kind == .fundPassword)
    }

    @Test("A5 FR-023-05-4 success by 2FA continues the original action")
    func A5_FR_023_05_4_successByOtherMethodContinues() {
        var flow = F.evaluating()
        _ = flow.userTappedOtherMethod()

        // The code goes to the server for this verification.
        let sent = flow.userSubmittedCode(" 123 456 ")
        guard case .submitCode(let id, let code, let screen) = sent else {
            Issue.record("expected a code, got \(sent)")
            return
        }
        #expect(id == "v-1" && code.value == "123456" && screen.isBusy)

        // Accepted: the same context comes back, with the method that passed.
        #expect(
            flow.serverAttemptSucceeded(F.passed).result
                == .succeeded(
                    VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .totp)))
    }

    @Test("A5 success by the fund password continues the original action")
    func A5_successByFundPassword() {
        var flow = F.evaluating()
        _ = flow.userTappedUsePassword()

        // The fund password goes to the server.
        let sent = flow.userSubmittedFundPassword("135790")
        guard case .submitFundPassword(let id, let password, _) = sent else {
            Issue.record("expected a fund password, got \(sent)")
            return
        }
        #expect(id == "v-1" && password.value == "135790")

        // Accepted.
        #expect(
            flow.serverAttemptSucceeded(F.passed).result
                == .succeeded(
                    VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .fundPassword)))
    }

    @Test("A5 a code page offers the other code method and a way back to Face ID")
    func A5_codePageOffersTheOtherMethods() {
        var flow = F.evaluating()

        // From the prompt to 2FA.
        let code = flow.userTappedOtherMethod().screen
        #expect(code?.buttonTitles == ["确认", "使用其他方式验证", "使用Face ID验证", "取消"])

        // From 2FA to the fund password.
        #expect(flow.userTappedOtherMethod().screen?.kind == .fundPassword)

        // And back to 2FA.
        #expect(flow.userTappedOtherMethod().screen?.kind == .oneTimeCode)
    }

    // MARK: A6 / FR-023-06 — the Face ID (camera) permission

    @Test("A6 FR-023-06-1 first use explains 需要使用相机进行面容识别验证 before evaluating")
    func A6_FR_023_06_1_firstUseExplainsFirst() {
        var flow = F.flow(F.device(.available(.faceID, permission: .notDetermined)))
        _ = flow.start()

        // The explanation, not the prompt.
        let explained = flow.serverStarted(F.started())
        #expect(explained.screen?.message == "需要使用相机进行面容识别验证")

        // 继续 asks the system.
        #expect(flow.userTappedContinue() == .requestBiometricPermission)
    }

    @Test("A6 FR-023-06-2 denied: 无法使用Face ID，请在设置中开启相机权限 with 使用密码验证")
    func A6_FR_023_06_2_deniedOffersPassword() {
        var flow = F.flow(F.device(.available(.faceID, permission: .notDetermined)))
        _ = flow.start()
        _ = flow.serverStarted(F.started())
        _ = flow.userTappedContinue()

        // The user refuses.
        let denied = flow.permissionPromptAnswered(granted: false).screen
        #expect(denied?.message == "无法使用Face ID，请在设置中开启相机权限")
        #expect(denied?.button(.usePassword)?.title == "使用密码验证")

        // 使用密码验证 opens the fund-password page.
        #expect(flow.userTappedUsePassword().screen?.kind == .fundPassword)
    }

    @Test("A6 FR-023-06-3 granted: straight to the Face ID prompt")
    func A6_FR_023_06_3_grantedGoesStraightToEvaluation() {
        var flow = F.flow(F.device(.available(.faceID, permission: .notDetermined)))
        _ = flow.start()
        _ = flow.serverStarted(F.started())
        _ = flow.userTappedContinue()

        let action = flow.permissionPromptAnswered(granted: true)

        #expect(action.evaluatesBiometrics)
    }

    @Test("A6 a permission refused earlier shows the denial at once")
    func A6_deniedEarlierShowsDenialAtOnce() {
        var flow = F.flow(F.device(.available(.faceID, permission: .denied)))
        _ = flow.start()

        let screen = flow.serverStarted(F.started()).screen

        #expect(screen?.kind == .permissionDenied)
    }

    @Test("A6 a denial reported by the prompt shows the denial page")
    func A6_denialDuringEvaluation() {
        var flow = F.evaluating()

        let screen = flow.biometricFinished(.permissionDenied).screen

        #expect(screen?.message == "无法使用Face ID，请在设置中开启相机权限")
    }

    @Test("A6 前往设置 opens the system Settings")
    func A6_openSettings() {
        var flow = F.flow(F.device(.available(.faceID, permission: .denied)))
        _ = flow.start()
        _ = flow.serverStarted(F.started())

        #expect(flow.userTappedOpenSettings() == .openSettings)
    }

    @Test("A6 Touch ID needs no permission: no explanation")
    func A6_touchIDNeedsNoPermission() {
        var flow = F.flow(F.device(.available(.touchID, permission: .notDetermined)))
        _ = flow.start()

        let action = flow.serverStarted(F.started())

        #expect(action.prompt?.sensor == .touchID)
    }

    // MARK: A7 — degrade to the password

    @Test(
        "A7 unusable biometrics at start go to the password with the reason",
        arguments: [
            (VerificationDeviceState.Biometry.notSupported, "此设备不支持生物识别，请使用密码验证"),
            (.notEnrolled(.faceID), "未设置Face ID，请使用密码验证"),
            (.notAvailable(.touchID), "Touch ID不可用，请使用密码验证"),
            (.lockedOut(.faceID), "Face ID已被锁定，请使用密码验证")
        ])
    func A7_unusableAtStartDegrades(biometry: VerificationDeviceState.Biometry, message: String) {
        var flow = F.flow(F.device(biometry))
        _ = flow.start()

        let screen = flow.serverStarted(F.started()).screen

        #expect(screen?.kind == .fundPassword && screen?.message == message)
    }

    @Test(
        "A7 a prompt that reports lockout or unavailability goes to the password",
        arguments: [
            (BiometricOutcome.lockout, "Face ID已被锁定，请使用密码验证"),
            (.notAvailable, "Face ID不可用，请使用密码验证"),
            (.passcodeNotSet, "未设置设备密码，无法使用Face ID，请使用密码验证"),
            (.notEnrolled, "未设置Face ID，请使用密码验证")
        ])
    func A7_unusableDuringEvaluationDegrades(outcome: BiometricOutcome, message: String) {
        var flow = F.evaluating()

        let screen = flow.biometricFinished(outcome).screen

        #expect(screen?.kind == .fundPassword && screen?.message == message)
    }

    @Test("A7 a device key that cannot sign goes to the password")
    func A7_signingFailureDegrades() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.success)

        let screen = flow.signingFailed().screen

        #expect(screen?.kind == .fundPassword && screen?.message == "Face ID不可用，请使用密码验证")
    }

    @Test("A7 A11 a signature the server refuses goes to the password")
    func A7_rejectedSignatureDegrades() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.success)

        let screen = flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 4)).screen

        #expect(screen?.kind == .fundPassword && screen?.message == "Face ID验证未通过，请使用密码验证")
    }

    @Test("A7 the prompt's fallback button (使用密码验证) opens the fund-password page")
    func A7_promptFallbackOpensPassword() {
        var flow = F.evaluating()

        let screen = flow.biometricFinished(.userFallback).screen

        #expect(screen?.kind == .fundPassword && screen?.message == "请输入6位资金密码")
    }

    // MARK: A8 — context, interruption, time-out

    @Test("A8 a system interruption is not a failure")
    func A8_systemCancelIsNotAFailure() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()

        // A call comes in: the prompt is cut off.
        let interrupted = flow.biometricFinished(.systemCancel).screen
        #expect(interrupted?.message == "Face ID验证已中断，请再试一次")
        #expect(interrupted?.detail == "剩余2次尝试机会")

        // Trying again, the next failure is still only the second.
        _ = flow.userTappedRetry()
        #expect(flow.biometricFinished(.failed).screen?.message == "第2/3次尝试失败")
    }

    @Test("A8 leaving the app cancels the prompt; its late result is ignored")
    func A8_appSwitchCancelsPromptWithoutCounting() {
        var flow = F.evaluating()

        // The app goes to the background.
        let left = flow.appDidEnterBackground()
        #expect(left == .cancelBiometricEvaluation(thenShow: left.screen!))
        #expect(left.screen?.button(.retry) != nil)

        // The cancelled prompt reports back late.
        #expect(flow.biometricFinished(.appCancel) == .none)

        // Back in the app, 再试一次 runs the prompt again; no failure was counted.
        _ = flow.userTappedRetry()
        #expect(flow.biometricFinished(.failed).screen?.message == "第1/3次尝试失败")
    }

    @Test("A8 a time-out offers 重新验证, which opens a new verification for the same action")
    func A8_timeoutOffersRestart() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)

        // Time runs out on the retry page.
        let expired = flow.timedOut(verificationID: "v-1").screen
        #expect(expired?.message == "验证已超时，请重新验证")
        #expect(expired?.button(.retry)?.title == "重新验证")

        // 重新验证: the same action and parameters are sent again.
        #expect(
            flow.userTappedRetry() == .startServerVerification(F.withdrawal.request, screen: flow.screenAfterRestart))

        // The new verification starts Face ID again; the old timer is stale.
        #expect(flow.serverStarted(F.started(id: "v-2")).evaluatesBiometrics)
        #expect(flow.timedOut(verificationID: "v-1") == .none)

        // The earlier failure still counts.
        #expect(flow.biometricFinished(.failed).screen?.message == "第2/3次尝试失败")
    }

    @Test("A8 a time-out during the prompt cancels it")
    func A8_timeoutDuringPromptCancelsIt() {
        var flow = F.evaluating()

        let action = flow.timedOut(verificationID: "v-1")

        #expect(action.cancelsBiometrics && action.screen?.kind == .expired)
    }

    @Test("A8 a time-out while an answer is on its way waits for the server")
    func A8_timeoutWhileSubmittingWaits() {
        var flow = F.evaluating()
        _ = flow.userTappedUsePassword()
        _ = flow.userSubmittedFundPassword("135790")

        // The timer fires: the server's answer decides.
        #expect(flow.timedOut(verificationID: "v-1") == .none)

        // It says the verification is gone: 重新验证 is offered.
        #expect(flow.serverAttemptFailed(.verificationGone).screen?.message == "验证已失效，请重新验证")
    }

    @Test("A8 the context survives method switches, a time-out and a restart")
    func A8_contextRestoredAfterEverything() {
        var flow = F.evaluating()
        _ = flow.userTappedOtherMethod()
        _ = flow.timedOut(verificationID: "v-1")
        _ = flow.userTappedRetry()
        _ = flow.serverStarted(F.started(id: "v-2"))
        _ = flow.biometricFinished(.success)

        let result = flow.serverAttemptSucceeded(F.passed).result

        #expect(
            result
                == .succeeded(
                    VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .biometric)))
    }

    @Test("A8 the timer: the server's expires_in, capped at the 120 s challenge, less a margin")
    func A8_timeoutLength() {
        #expect(VerificationFlow.timeout(for: F.started()) == 115)
        #expect(VerificationFlow.timeout(for: F.started(biometric: false)) == 295)
    }

    // MARK: Server answers on the fallback methods (C11 codes)

    @Test("A5 AUTH_003 a wrong code shows the attempts the server still allows")
    func C11_wrongCodeShowsRemainingAttempts() {
        var flow = F.evaluating()
        _ = flow.userTappedOtherMethod()
        _ = flow.userSubmittedCode("123456")

        let screen = flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 3)).screen

        #expect(screen?.message == "验证码错误" && screen?.detail == "剩余3次尝试机会")
    }

    @Test("A5 AUTH_003 a wrong fund password shows the attempts left")
    func C11_wrongFundPassword() {
        var flow = F.evaluating()
        _ = flow.userTappedUsePassword()
        _ = flow.userSubmittedFundPassword("135790")

        let screen = flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 1)).screen

        #expect(screen?.message == "资金密码错误" && screen?.detail == "剩余1次尝试机会")
    }

    @Test("A5 AUTH_003 with no attempts left the verification must be opened again")
    func C11_noAttemptsLeftOffersRestart() {
        var flow = F.evaluating()
        _ = flow.userTappedUsePassword()
        _ = flow.userSubmittedFundPassword("135790")

        let screen = flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 0)).screen

        #expect(screen?.kind == .expired && screen?.message == "尝试次数过多，请重新验证")
    }

    @Test("A5 AUTH_002 a locked method shows when it opens again")
    func C11_lockedShowsUnlockTime() {
        var flow = F.evaluating()
        _ = flow.userTappedUsePassword()
        _ = flow.userSubmittedFundPassword("135790")
        let until = Date(timeIntervalSince1970: 1_765_173_900) // 2025-12-08 06:05 UTC = 14:05 in Shanghai

        let screen = flow.serverAttemptFailed(.locked(until: until)).screen

        #expect(screen?.message == "该验证方式已被锁定" && screen?.detail == "请于14:05后重试，或使用其他方式验证")
    }

    @Test("AUTH_004 an expired session ends the flow without a token")
    func C11_sessionExpiredEndsTheFlow() {
        var flow = F.evaluating()
        _ = flow.userTappedOtherMethod()
        _ = flow.userSubmittedCode("123456")

        let result = flow.serverAttemptFailed(.sessionExpired).result

        #expect(result == .failed(.sessionExpired))
    }

    @Test("C11 a network failure keeps the page and suggests a retry")
    func C11_networkFailureKeepsThePage() {
        var flow = F.evaluating()
        _ = flow.userTappedOtherMethod()
        _ = flow.userSubmittedCode("123456")

        let screen = flow.serverAttemptFailed(.network).screen

        #expect(screen?.kind == .oneTimeCode && screen?.message == "网络连接失败，请重试")
    }

    @Test("C11 a biometric signature lost to the network can be tried again, uncounted")
    func C11_networkFailureAfterBiometrics() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.success)

        // The signature did not reach the server.
        #expect(flow.serverAttemptFailed(.network).screen?.message == "网络连接失败，请重试")

        // 再试一次 runs the prompt again.
        #expect(flow.userTappedRetry().evaluatesBiometrics)
    }

    @Test("C11 opening the verification can fail and be retried; NO_VERIFICATION_METHOD ends the flow")
    func C11_startFailures() {
        var flow = F.flow()
        _ = flow.start()

        // Offline.
        #expect(flow.serverStartFailed(.network).screen?.message == "网络连接失败，请重试")

        // 再试一次 asks again.
        #expect(flow.userTappedRetry().screen?.kind == .preparing)

        // The user has no method at all.
        #expect(flow.serverStartFailed(.noVerificationMethod).result == .failed(.noVerificationMethod))
    }

    // MARK: Input checks

    @Test("A5 what cannot be a code is not sent")
    func A5_malformedCodeIsNotSent() {
        var flow = F.evaluating()
        _ = flow.userTappedOtherMethod()

        // Letters and too few digits.
        #expect(flow.userSubmittedCode("12ab").screen?.message == "请输入6位验证码或恢复码")

        // A recovery code is a code too.
        guard case .submitCode(_, let code, _) = flow.userSubmittedCode("7kq2m-x9fht") else {
            Issue.record("a recovery code must be sent")
            return
        }
        #expect(code.value == "7kq2m-x9fht")
    }

    @Test("A5 a fund password is six digits; anything else is not sent")
    func A5_malformedFundPasswordIsNotSent() {
        var flow = F.evaluating()
        _ = flow.userTappedUsePassword()

        let screen = flow.userSubmittedFundPassword("12345").screen

        #expect(screen?.message == "资金密码为6位数字")
    }

    @Test("typed secrets never print")
    func secretsAreRedacted() {
        let secret = VerificationSecret("135790")

        #expect("\(secret)" == "<redacted>" && String(reflecting: secret) == "<redacted>")
    }
}

extension VerificationFlow {
    /// The preparing screen a restart shows (the same as the first one).
    fileprivate var screenAfterRestart: VerificationScreen {
        var fresh = VerificationFixtures.flow()
        return fresh.start().screen!
    }
}
