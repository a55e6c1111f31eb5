// Seed CW-023 §8 "验收标准汇总": every line as a narrative test named by its place in the list
// (CW-023 §8-01 … §8-15; the seed gives the lines no ids of their own), with the SPEC A-ids.
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("CW-023 §8 acceptance list")
struct VerificationSeedAcceptanceTests {
    typealias F = VerificationFixtures

    @Test("CW-023 §8-01 敏感操作正确触发FaceID验证 [A1, FR-023-01]")
    func S8_01_sensitiveActionTriggersFaceID() {
        var flow = F.flow()

        // The withdrawal asks for verification of exactly itself.
        #expect(
            flow.start()
                == .startServerVerification(
                    VerificationRequest(action: "withdrawal", parameters: F.withdrawal.parameters),
                    screen: F.flow().startScreen))

        // The offer arrives: Face ID is evaluated.
        #expect(flow.serverStarted(F.started()).prompt?.sensor == .faceID)
    }

    @Test("CW-023 §8-02 显示应用图标和验证提示 [A10, §2.2]")
    func S8_02_showsIconAndPrompt() {
        var flow = F.flow()
        _ = flow.start()

        let screen = flow.serverStarted(F.started()).screen

        #expect(screen?.icon == VerificationIcon(symbol: .faceID, accessibilityLabel: "Face ID图标"))
        #expect(screen?.title == "Face ID")
        #expect(screen?.message == "使用面容ID进行验证")
    }

    @Test("CW-023 §8-03 面部识别自动激活 [A1, FR-023-01-2]")
    func S8_03_faceRecognitionStartsByItself() {
        var flow = F.flow()
        _ = flow.start()

        // No tap between the server's offer and the prompt.
        let action = flow.serverStarted(F.started())

        #expect(action.evaluatesBiometrics)
    }

    @Test("CW-023 §8-04 验证成功后继续执行操作 [A2, FR-023-02]")
    func S8_04_successContinuesTheAction() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.success)

        let result = flow.serverAttemptSucceeded(F.passed).result

        #expect(
            result
                == .succeeded(
                    VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .biometric)))
    }

    @Test("CW-023 §8-05 验证失败提供重试选项 [A3, FR-023-03-1]")
    func S8_05_failureOffersRetry() {
        var flow = F.evaluating()

        // The face does not match: 再试一次 is offered.
        #expect(flow.biometricFinished(.failed).screen?.button(.retry)?.title == "再试一次")

        // It runs the prompt again.
        #expect(flow.userTappedRetry().evaluatesBiometrics)
    }

    @Test("CW-023 §8-06 验证失败时显示当前尝试次数（如\"第1/3次\"） [A3, FR-023-03-1]")
    func S8_06_failureShowsCurrentAttempt() {
        var flow = F.evaluating()

        // The first failure.
        #expect(flow.biometricFinished(.failed).screen?.message == "第1/3次尝试失败")

        // The second.
        _ = flow.userTappedRetry()
        #expect(flow.biometricFinished(.failed).screen?.message == "第2/3次尝试失败")
    }

    @Test("CW-023 §8-07 显示剩余尝试机会提示 [A3, FR-023-03-2/3]")
    func S8_07_showsRemainingAttempts() {
        var flow = F.evaluating()

        // After the first failure.
        #expect(flow.biometricFinished(.failed).screen?.detail == "剩余2次尝试机会")

        // After the second.
        _ = flow.userTappedRetry()
        #expect(flow.biometricFinished(.failed).screen?.detail == "剩余1次尝试机会，之后将使用密码验证")
    }

    @Test("CW-023 §8-08 多次失败后提供密码备选 [A3, §6.2]")
    func S8_08_failuresOfferThePassword() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()

        // After two failures the page offers the password.
        let screen = flow.biometricFinished(.failed).screen
        #expect(screen?.button(.usePassword)?.title == "使用密码验证")

        // Taking it opens the fund-password page.
        #expect(flow.userTappedUsePassword().screen?.kind == .fundPassword)
    }

    @Test("CW-023 §8-09 第3次失败后自动跳转密码验证 [A3, FR-023-03-4]")
    func S8_09_thirdFailureJumpsToPassword() {
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()
        _ = flow.biometricFinished(.failed)
        _ = flow.userTappedRetry()

        // The third failure moves to the password page with no tap.
        let screen = flow.biometricFinished(.failed).screen

        #expect(screen?.kind == .fundPassword && screen?.message == "Face ID验证失败次数过多，请使用密码验证")
    }

    @Test("CW-023 §8-10 取消按钮正常工作 [A4, FR-023-04]")
    func S8_10_cancelWorks() {
        // Every page carries 取消.
        for (name, screen) in F.everyScreen() {
            #expect(screen.button(.cancel)?.title == "取消", "\(name)")
        }

        // Tapping it closes the page; the action is not executed (no token).
        var flow = F.evaluating()
        _ = flow.biometricFinished(.failed)
        #expect(flow.userTappedCancel().result == .cancelled)
    }

    @Test("CW-023 §8-11 显示\"使用密码验证\"主动切换选项 [A6, §7.3]")
    func S8_11_showsUsePasswordSwitch() {
        var flow = F.flow()
        _ = flow.start()

        // On the page behind the prompt, and as the prompt's own fallback button.
        let evaluating = flow.serverStarted(F.started())
        #expect(evaluating.screen?.button(.usePassword)?.title == "使用密码验证")
        #expect(evaluating.prompt?.fallbackTitle == "使用密码验证")

        // Choosing it stops the prompt and opens the fund-password page.
        let switched = flow.userTappedUsePassword()
        #expect(switched.cancelsBiometrics && switched.screen?.kind == .fundPassword)
    }

    @Test("CW-023 §8-12 首次使用时请求相机权限并说明原因 [A6, FR-023-06-1]")
    func S8_12_firstUseExplainsAndAsks() {
        var flow = F.flow(F.device(.available(.faceID, permission: .notDetermined)))
        _ = flow.start()

        // The reason first.
        #expect(flow.serverStarted(F.started()).screen?.message == "需要使用相机进行面容识别验证")

        // Then the system request.
        #expect(flow.userTappedContinue() == .requestBiometricPermission)
    }

    @Test("CW-023 §8-13 权限被拒时提供替代验证方式 [A6, FR-023-06-2]")
    func S8_13_denialOffersAlternatives() {
        var flow = F.flow(F.device(.available(.faceID, permission: .notDetermined)))
        _ = flow.start()
        _ = flow.serverStarted(F.started())
        _ = flow.userTappedContinue()

        // Refused: the password and the other method are offered.
        let screen = flow.permissionPromptAnswered(granted: false).screen
        #expect(screen?.buttonIDs == [.usePassword, .otherMethod, .openSettings, .cancel])

        // The other method is 2FA here.
        #expect(flow.userTappedOtherMethod().screen?.kind == .oneTimeCode)
    }

    @Test("CW-023 §8-14 不支持FaceID时自动降级 [A7, §6.2, §7.3]")
    func S8_14_unsupportedDegrades() {
        var flow = F.flow(F.device(.notSupported))
        _ = flow.start()

        let action = flow.serverStarted(F.started())

        #expect(action.screen?.kind == .fundPassword && !action.evaluatesBiometrics)
    }

    @Test("CW-023 §8-15 验证流程符合iOS系统规范 [A1, B2, B3, §7.1]")
    func S8_15_followsTheSystemConventions() {
        var flow = F.flow()
        _ = flow.start()

        // The prompt carries a reason, the system's cancel title and a custom fallback title (B3).
        #expect(
            flow.serverStarted(F.started()).prompt
                == VerificationBiometricPrompt(
                    sensor: .faceID, localizedReason: "使用面容ID进行验证", fallbackTitle: "使用密码验证", cancelTitle: "取消"))

        // A system cancel (LAError −4) is no failure; a user cancel (−2) ends the flow (B2).
        #expect(flow.biometricFinished(.systemCancel).screen?.detail == nil)
        _ = flow.userTappedRetry()
        #expect(flow.biometricFinished(.userCancel).result == .cancelled)

        // With nothing to fall back to, the fallback button is hidden (an empty title, B3).
        var alone = F.flow()
        _ = alone.start()
        #expect(alone.serverStarted(F.started(totp: false, fundPassword: false)).prompt?.fallbackTitle == "")
    }
}

extension VerificationFlow {
    /// The first screen of a fresh flow.
    fileprivate var startScreen: VerificationScreen {
        var flow = self
        return flow.start().screen!
    }
}
