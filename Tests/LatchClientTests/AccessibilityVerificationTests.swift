// Seed CW-023 §9 "无障碍访问要求" and SPEC A9: every line as a narrative test named by its place in
// the list (CW-023 §9-01 … §9-07).
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("CW-023 §9 accessibility (A9)")
struct AccessibilityVerificationTests {
    typealias F = VerificationFixtures

    /// Every page in both languages, for Face ID and Touch ID.
    static let allScreens: [(name: String, screen: VerificationScreen)] =
        [VerificationSensor.faceID, .touchID].flatMap { sensor in
            LatchLanguage.allCases.flatMap { language in
                F.everyScreen(sensor, language: language).map { ("\(sensor) \(language) \($0.name)", $0.screen) }
            }
        }

    @Test("CW-023 §9-01 所有文本颜色对比度符合WCAG 2.1 AA标准（最低4.5:1） [A9]")
    func S9_01_textContrastIsAtLeast4Point5() {
        // The contrast formula is WCAG's: black on white is 21:1, a colour on itself 1:1, and
        // #777777 on white just misses AA (4.48:1).
        let white = VerificationColor(0xFFFFFF)
        #expect(abs(VerificationColor(0x000000).contrastRatio(with: white) - 21) < 0.001)
        #expect(abs(white.contrastRatio(with: white) - 1) < 0.001)
        #expect(VerificationColor(0x777777).contrastRatio(with: white) < VerificationAppearance.minimumContrastRatio)

        // Every text colour of both appearances, against what it is drawn on.
        for (appearance, palette) in [("light", VerificationAppearance.light), ("dark", VerificationAppearance.dark)] {
            for pair in palette.textPairs {
                let ratio = pair.foreground.contrastRatio(with: pair.background)
                #expect(
                    ratio >= VerificationAppearance.minimumContrastRatio,
                    "\(appearance) \(pair.name): \(pair.foreground) on \(pair.background) is \(ratio):1")
            }
        }
    }

    @Test("CW-023 §9-02 按钮和可交互元素最小触摸目标为44x44pt [A9]")
    func S9_02_touchTargetsAreAtLeast44pt() {
        #expect(VerificationAppearance.minimumTouchTarget == VerificationSize(width: 44, height: 44))

        for (name, screen) in Self.allScreens {
            for button in screen.buttons {
                #expect(button.minimumSize.width >= 44 && button.minimumSize.height >= 44, "\(name) \(button.id)")
            }
            if let input = screen.input {
                #expect(input.minimumSize.width >= 44 && input.minimumSize.height >= 44, "\(name) field")
            }
        }
    }

    @Test("CW-023 §9-03 支持屏幕阅读器，所有UI元素有适当的无障碍标签 [A9]")
    func S9_03_everyElementHasALabel() {
        for (name, screen) in Self.allScreens {
            // The picture, the title and the message.
            #expect(!screen.icon.accessibilityLabel.isEmpty, "\(name) icon")
            #expect(!screen.title.isEmpty && !screen.message.isEmpty, "\(name) texts")

            // Each button is named by its visible title (so voice control finds it) and says what it does.
            for button in screen.buttons {
                #expect(
                    button.accessibilityLabel.hasPrefix(button.title) && !button.title.isEmpty, "\(name) \(button.id)")
                #expect(!button.accessibilityHint.isEmpty, "\(name) \(button.id) hint")
            }

            // The field.
            if let input = screen.input {
                #expect(!input.label.isEmpty && !input.accessibilityHint.isEmpty, "\(name) field")
            }
        }
    }

    @Test("CW-023 §9-04 验证状态变化通过无障碍公告通知用户（aria-live=\"polite\"） [A9]")
    func S9_04_stateChangesAreAnnouncedPolitely() {
        var flow = F.flow()
        var announcements: [VerificationAnnouncement] = []

        // A whole journey: opening, the prompt, a failure, the retry, the password, the end.
        let steps: [VerificationFlow.Action] = [
            flow.start(),
            flow.serverStarted(F.started()),
            flow.biometricFinished(.failed),
            flow.userTappedRetry(),
            flow.userTappedUsePassword(),
            flow.userSubmittedFundPassword("135790"),
            flow.serverAttemptSucceeded(F.passed)
        ]
        for step in steps {
            if let screen = step.screen { announcements.append(screen.announcement) }
            if case .finish(_, let announcement) = step { announcements.append(announcement) }
        }

        // Every change is announced, politely, and no two consecutive announcements repeat.
        #expect(announcements.count == steps.count)
        #expect(announcements.allSatisfy { $0.politeness == .polite && !$0.text.isEmpty })
        #expect(zip(announcements, announcements.dropFirst()).allSatisfy { $0.text != $1.text })
        #expect(announcements.last?.text == "验证成功")
    }

    @Test("CW-023 §9-05 失败提示和剩余次数通过VoiceOver朗读 [A3, A9]")
    func S9_05_failuresAndRemainingAttemptsAreRead() {
        var flow = F.evaluating()

        // The first failure: the count and what is left.
        #expect(flow.biometricFinished(.failed).screen?.announcement.text == "第1/3次尝试失败，剩余2次尝试机会")

        // The second.
        _ = flow.userTappedRetry()
        #expect(
            flow.biometricFinished(.failed).screen?.announcement.text
                == "第2/3次尝试失败，剩余1次尝试机会，之后将使用密码验证")

        // The third, and the switch.
        _ = flow.userTappedRetry()
        #expect(flow.biometricFinished(.failed).screen?.announcement.text == "Face ID验证失败次数过多，请使用密码验证")

        // A wrong fund password, with the server's remaining attempts.
        _ = flow.userSubmittedFundPassword("135790")
        #expect(
            flow.serverAttemptFailed(.wrongAnswer(attemptsRemaining: 2)).screen?.announcement.text
                == "资金密码错误，剩余2次尝试机会")
    }

    @Test("CW-023 §9-05 in English the failures are read too [A9, A10]")
    func S9_05_failuresAreReadInEnglish() {
        var flow = F.evaluating(language: .en)

        #expect(flow.biometricFinished(.failed).screen?.announcement.text == "Attempt 1 of 3 failed. 2 attempts left.")
    }

    @Test("CW-023 §9-06 \"使用密码验证\"按钮有明确的无障碍描述 [A9]")
    func S9_06_usePasswordHasAnExplicitDescription() {
        var flow = F.evaluating()
        let button = flow.biometricFinished(.failed).screen?.button(.usePassword)

        // Named as shown, described explicitly: what it skips and what it asks for.
        #expect(button?.accessibilityLabel == "使用密码验证")
        #expect(button?.accessibilityHint == "不使用Face ID，改为输入6位资金密码完成验证")

        // Touch ID and English say the same.
        var touch = F.evaluating(.touchID, language: .en)
        #expect(
            touch.biometricFinished(.failed).screen?.button(.usePassword)?.accessibilityHint
                == "Skips Touch ID and verifies with your 6-digit fund password instead.")
    }

    @Test("CW-023 §9-07 支持键盘导航（适用于平板/桌面设备） [A9]")
    func S9_07_keyboardNavigation() {
        for (name, screen) in Self.allScreens {
            let cancelKeys = screen.buttons.filter { $0.keyboardShortcut == .cancelAction }
            let defaultKeys = screen.buttons.filter { $0.keyboardShortcut == .defaultAction }

            // Escape always cancels, and 取消 is last in focus order.
            #expect(cancelKeys.map(\.id) == [.cancel] && screen.buttons.last?.id == .cancel, "\(name)")

            // Return triggers at most one control: the page's primary one, first in focus order.
            #expect(defaultKeys.count <= 1, "\(name)")
            #expect(defaultKeys.allSatisfy { $0.role == .primary && $0.id == screen.buttons.first?.id }, "\(name)")
        }
    }

    @Test("A9 a busy page disables what cannot be used while a request runs")
    func A9_busyPageDisablesControls() {
        var flow = F.evaluating()
        _ = flow.userTappedOtherMethod()

        let screen = flow.userSubmittedCode("123456").screen

        #expect(screen?.buttons.filter(\.isEnabled).map(\.id) == [.cancel])
        #expect(screen?.input?.isEnabled == false)
    }
}
