// A10: the verification page's texts in zh-Hans (the seed's wording, exactly) and English, with the
// title naming the sensor.
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("Verification strings (A10)")
struct StringsVerificationTests {
    typealias F = VerificationFixtures

    @Test("A10 the seed's texts, character for character")
    func A10_seedTextsExactly() {
        let zh = VerificationStrings(.zhHans)

        #expect(zh.attemptFailed(1) == "第1/3次尝试失败")
        #expect(zh.attemptsRemaining(2) == "剩余2次尝试机会")
        #expect(zh.lastBiometricAttempt(then: .fundPassword) == "剩余1次尝试机会，之后将使用密码验证")
        #expect(zh.tooManyFailures(.faceID, then: .fundPassword) == "Face ID验证失败次数过多，请使用密码验证")
        #expect(zh.retry == "再试一次")
        #expect(zh.cancel == "取消")
        #expect(zh.otherMethod == "使用其他方式验证")
        #expect(zh.usePassword == "使用密码验证")
        #expect(zh.permissionExplanation == "需要使用相机进行面容识别验证")
        #expect(zh.permissionDenied == "无法使用Face ID，请在设置中开启相机权限")
        #expect(zh.biometricMessage(for: .faceID) == "使用面容ID进行验证")
    }

    @Test("A10 the same texts in English")
    func A10_englishTexts() {
        let en = VerificationStrings(.en)

        #expect(en.attemptFailed(1) == "Attempt 1 of 3 failed.")
        #expect(en.attemptsRemaining(2) == "2 attempts left.")
        #expect(
            en.lastBiometricAttempt(then: .fundPassword) == "1 attempt left, then you will verify with your password.")
        #expect(
            en.tooManyFailures(.faceID, then: .fundPassword)
                == "Too many failed Face ID attempts. Please verify with your password.")
        #expect(en.retry == "Try Again")
        #expect(en.cancel == "Cancel")
        #expect(en.otherMethod == "Use Another Method")
        #expect(en.usePassword == "Use Password")
        #expect(en.permissionExplanation == "Face ID verification needs access to the camera.")
        #expect(en.permissionDenied == "Face ID is unavailable. Please allow camera access in Settings.")
        #expect(en.biometricMessage(for: .faceID) == "Use Face ID to verify.")
    }

    @Test("A10 the title names the sensor: Face ID or Touch ID, in both languages")
    func A10_titleNamesTheSensor() {
        for language in LatchLanguage.allCases {
            for (sensor, title) in [(VerificationSensor.faceID, "Face ID"), (.touchID, "Touch ID")] {
                var flow = F.flow(F.device(.available(sensor, permission: .granted)), language: language)
                _ = flow.start()
                #expect(flow.serverStarted(F.started()).screen?.title == title, "\(language) \(sensor)")
            }
        }
    }

    @Test("A10 Touch ID pages speak of Touch ID (触控ID)")
    func A10_touchIDWording() {
        var flow = F.flow(F.device(.available(.touchID, permission: .granted)))
        _ = flow.start()

        // The prompt's line.
        #expect(flow.serverStarted(F.started()).screen?.message == "使用触控ID进行验证")

        // The retry hint.
        #expect(flow.biometricFinished(.failed).screen?.button(.retry)?.accessibilityHint == "再次进行Touch ID验证")
    }

    @Test("A10 the English flow, step by step")
    func A10_englishNarrative() {
        var flow = F.evaluating(language: .en)

        // Two failures.
        let first = flow.biometricFinished(.failed).screen
        #expect(first?.message == "Attempt 1 of 3 failed." && first?.detail == "2 attempts left.")
        _ = flow.userTappedRetry()
        #expect(
            flow.biometricFinished(.failed).screen?.detail == "1 attempt left, then you will verify with your password."
        )

        // The third switches to the password.
        _ = flow.userTappedRetry()
        let password = flow.biometricFinished(.failed).screen
        #expect(password?.title == "Fund Password")
        #expect(password?.message == "Too many failed Face ID attempts. Please verify with your password.")

        // Cancel.
        #expect(
            flow.userTappedCancel()
                == .finish(.cancelled, announcement: VerificationAnnouncement("Verification cancelled.")))
    }

    @Test("A10 no English page carries Chinese, and every Chinese page speaks Chinese")
    func A10_languagesDoNotMix() {
        for sensor in VerificationSensor.allCases {
            for (name, screen) in F.everyScreen(sensor, language: .en) {
                #expect(!Self.texts(of: screen).contains(where: Self.hasHan), "\(sensor) \(name)")
            }
            for (name, screen) in F.everyScreen(sensor, language: .zhHans) {
                #expect(
                    Self.hasHan(screen.message) && screen.buttons.allSatisfy { Self.hasHan($0.title) },
                    "\(sensor) \(name)")
            }
        }
    }

    @Test("A10 the language follows LatchLanguage (Accept-Language)")
    func A10_languageSelection() {
        #expect(VerificationStrings(LatchLanguage(acceptLanguage: "zh-CN,zh;q=0.9")).cancel == "取消")
        #expect(VerificationStrings(LatchLanguage(acceptLanguage: "en-US")).cancel == "Cancel")
    }

    @Test("A10 lock times read the same in both languages")
    func A10_lockTimes() {
        let until = Date(timeIntervalSince1970: 1_765_173_900)
        let shanghai = TimeZone(identifier: "Asia/Shanghai")!

        #expect(
            VerificationStrings(.zhHans).lockedUntil(VerificationStrings(.zhHans).clockTime(until, in: shanghai))
                == "请于14:05后重试，或使用其他方式验证")
        #expect(
            VerificationStrings(.en).lockedUntil(
                VerificationStrings(.en).clockTime(until, in: TimeZone(identifier: "UTC")!))
                == "Try again after 06:05, or use another method.")
    }

    @Test("A10 server texts reuse the API's wording (AUTH_003, VERIFICATION_INVALID, AUTH_004)")
    func A10_serverTextsMatchTheAPI() {
        for language in LatchLanguage.allCases {
            let strings = VerificationStrings(language)
            #expect(strings.wrongCode == LatchErrorCode.wrongCode.message(in: language))
            #expect(strings.verificationInvalid == LatchErrorCode.verificationInvalid.message(in: language))
            #expect(strings.failed(.sessionExpired) == LatchErrorCode.sessionExpired.message(in: language))
        }
    }

    private static func texts(of screen: VerificationScreen) -> [String] {
        var texts = [screen.title, screen.message, screen.icon.accessibilityLabel, screen.announcement.text]
        if let detail = screen.detail { texts.append(detail) }
        for button in screen.buttons {
            texts += [button.title, button.accessibilityLabel, button.accessibilityHint]
        }
        if let input = screen.input {
            texts += [input.label, input.placeholder, input.accessibilityHint]
        }
        return texts
    }

    private static func hasHan(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }
    }
}
