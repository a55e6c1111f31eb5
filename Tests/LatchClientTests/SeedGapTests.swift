// Issue 23 §1: the last gaps between the seed documents and the SDK, one test (or more) named for each.
import Foundation
import LatchCore
import Testing

@testable import LatchClient

@Suite("Seed gaps (issue 23 §1)")
struct SeedGapTests {
    typealias F = VerificationFixtures

    // MARK: HTTPS (seed 004 §8.1)

    @Test func test_23_1_httpsOnlyServerURLExceptLoopback() {
        for allowed in [
            "https://auth.example.com", "https://auth.example.com/prefix/", "http://127.0.0.1:8080",
            "http://localhost:8080",
            "http://[::1]:8080", "http://127.1.2.3"
        ] {
            #expect(ServerURLPolicy.allows(URL(string: allowed)!), "\(allowed)")
        }
        for refused in [
            "http://auth.example.com", "http://192.168.1.10:8080", "http://127.0.0.1.evil.com", "ftp://auth.example.com"
        ] {
            #expect(!ServerURLPolicy.allows(URL(string: refused)!), "\(refused)")
            #expect(throws: InsecureServerURL(url: URL(string: refused)!)) {
                try ServerURLPolicy.check(URL(string: refused)!)
            }
        }
        #expect(InsecureServerURL(url: URL(string: "http://a.example")!).description.contains("https://"))
    }

    @Test func test_23_1_plainHTTPServerGetsNoRequest() async throws {
        let recorder = NoContentTransport()
        let api = LatchAPI(serverURL: URL(string: "http://auth.example.com")!, transport: recorder)

        await #expect(throws: InsecureServerURL.self) { try await api.forgotPassword(email: "a@example.com") }

        #expect(await recorder.sent.isEmpty)
        // Loopback http is a development latchd: allowed.
        let local = LatchAPI(serverURL: URL(string: "http://127.0.0.1:8080")!, transport: recorder)
        try await local.forgotPassword(email: "a@example.com")
        #expect(await recorder.sent.count == 1)
    }

    // MARK: The app icon on the card (seed 000 §2.2, §5.1, §8)

    @Test func test_23_1_appIconOnTheCardByDefault() {
        // iOS with an asset catalog: the primary icon's name.
        let iOS: [String: Any] = [
            "CFBundleIcons": [
                "CFBundlePrimaryIcon": ["CFBundleIconName": "AppIcon", "CFBundleIconFiles": ["AppIcon60x60"]]
            ]
        ]
        #expect(AppIconName.primary(in: iOS) == "AppIcon")
        // Icon files only: the last (largest).
        let files: [String: Any] = [
            "CFBundleIcons": ["CFBundlePrimaryIcon": ["CFBundleIconFiles": ["Icon-40", "Icon-60"]]]
        ]
        #expect(AppIconName.primary(in: files) == "Icon-60")
        // macOS.
        #expect(AppIconName.primary(in: ["CFBundleIconFile": "AppIcon.icns"]) == "AppIcon.icns")
        #expect(AppIconName.primary(in: ["CFBundleIconName": "AppIcon", "CFBundleIconFile": "Old"]) == "AppIcon")
        // No icon declared: none shown.
        #expect(AppIconName.primary(in: [:]) == nil)
        #expect(AppIconName.primary(in: ["CFBundleIconName": ""]) == nil)
    }

    // MARK: The caller's description on the card (seed 000 §5.1 "操作描述 … 调用方传入")

    @Test func test_23_1_callerDescriptionOnTheCard() {
        var context = F.withdrawal
        context.localizedReason = "提现 100 USDT 至 TXabc…"
        var flow = VerificationFlow(
            context: context, device: F.device(), language: .zhHans, timeZone: TimeZone(identifier: "Asia/Shanghai")!)

        // Every page carries it, not only the system prompt.
        #expect(flow.start().screen?.operationDescription == "提现 100 USDT 至 TXabc…")
        let biometric = flow.serverStarted(F.started())
        #expect(biometric.screen?.operationDescription == "提现 100 USDT 至 TXabc…")
        #expect(biometric.prompt?.localizedReason == "提现 100 USDT 至 TXabc…")
        #expect(flow.userTappedUsePassword().screen?.operationDescription == "提现 100 USDT 至 TXabc…")

        // Without a description the card shows none.
        var plain = F.flow()
        #expect(plain.start().screen?.operationDescription == nil)
    }

    // MARK: Touch ID's texts (seeds 001, 002)

    @Test func test_23_1_biometricSwitchLabels() {
        #expect(SecuritySettingsStrings(.zhHans).biometricSwitch(.touchID) == "指纹登录")
        #expect(SecuritySettingsStrings(.zhHans).biometricSwitch(.faceID) == "面容登录")
        #expect(SecuritySettingsStrings(.en).biometricSwitch(.touchID) == "Touch ID sign-in")
        #expect(SecuritySettingsStrings(.en).biometricSwitch(.faceID) == "Face ID sign-in")
        #expect(SecuritySettingsStrings(.zhHans).biometricSwitch(nil) == "面容或指纹登录")
    }

    // MARK: Enrollment change before step-up (seed 001 "指纹支付 … Hash值")

    @Test func test_23_1_enrollmentChangeRemovesBiometricsFromTheVerificationPage() async throws {
        let vault = InMemoryVault()
        let sensor = SimulatedAuthenticator(kind: .faceID)
        await sensor.grantPermission()
        try await BiometricEnrollmentStore(vault: vault).remember(
            BiometricBinding(credentialID: F.credentialID, biometry: .faceID),
            reading: try #require(await sensor.domainStateReading()))
        let client = LatchClient(
            serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: NoContentTransport())

        // Unchanged: biometrics are offered.
        #expect(await client.verificationDeviceState(authenticator: sensor).biometricCredentialID == F.credentialID)

        // A face is added in Settings: the domain state differs.
        await sensor.reenroll()
        let device = await client.verificationDeviceState(authenticator: sensor)
        #expect(device.biometricCredentialID == nil)
        #expect(device.biometricEnrollmentChanged)

        // The page goes to the password and says why; no biometric prompt runs.
        var flow = F.flow(device)
        _ = flow.start()
        let opened = flow.serverStarted(F.started())
        #expect(opened.evaluatesBiometrics == false)
        #expect(opened.screen?.kind == .fundPassword)
        #expect(opened.screen?.message == "Face ID信息已变更，请使用密码验证")
        #expect(opened.screen?.button(.useBiometrics) == nil)

        var english = F.flow(device, language: .en)
        _ = english.start()
        #expect(
            english.serverStarted(F.started()).screen?.message
                == "Your Face ID settings have changed. Please verify with your password.")
    }
}

#if canImport(Observation)
    /// Registration's 👁 (seed 004 §3.2): the state and its VoiceOver texts live in the model.
    @MainActor
    @Suite("Registration 👁 (issue 23 §1)")
    struct RegistrationRevealTests {
        @Test func test_23_1_registrationShowHidePasswordState() {
            let model = RegistrationScreenModel(service: FakeRegistrationService(), language: .zhHans)

            // Hidden at first: the 👁 offers to show it.
            #expect(model.isPasswordVisible == false)
            #expect(model.passwordRevealLabel == "显示密码")
            #expect(model.passwordRevealSymbol == "eye")

            // A tap shows it; the 👁 now offers to hide it.
            model.togglePasswordVisibility()
            #expect(model.isPasswordVisible)
            #expect(model.passwordRevealLabel == "隐藏密码")
            #expect(model.passwordRevealSymbol == "eye.slash")

            // The confirmation has its own 👁.
            #expect(model.confirmationRevealLabel == "显示密码")
            model.toggleConfirmationVisibility()
            #expect(model.confirmationRevealLabel == "隐藏密码")
            model.togglePasswordVisibility()
            #expect(model.passwordRevealLabel == "显示密码")
        }

        @Test func test_23_1_registrationRevealInEnglish() {
            let model = RegistrationScreenModel(service: FakeRegistrationService(), language: .en)
            #expect(model.passwordRevealLabel == "Show Password")
            model.togglePasswordVisibility()
            #expect(model.passwordRevealLabel == "Hide Password")
            // 《用户协议》 and 《隐私政策》 are two links, with two names.
            #expect(model.strings.termsOfService == "Terms of Service")
            #expect(model.strings.privacyPolicy == "Privacy Policy")
        }
    }
#endif

@Suite("Touch ID texts (issue 23 §1, seed 001)")
struct TouchIDTextTests {
    @Test func test_23_1_touchIDUnavailableTexts() {
        // canEvaluatePolicy's default case: "指纹不可用".
        let capability = BiometricNotice.unavailable(.notAvailable, kind: .touchID)
        #expect(capability.text(in: .zhHans) == "指纹不可用")
        // evaluatePolicy's LAErrorTouchIDNotAvailable (−6): "设备指纹不可用".
        let prompt = BiometricNotice(failure: .biometryNotAvailable, kind: .touchID)
        #expect(prompt?.text(in: .zhHans) == "设备指纹不可用")
        #expect(capability.text(in: .en) != prompt?.text(in: .en))
        #expect(capability.suggestsSettings)
        #expect(
            BiometricNotice.unavailable(.touchID).text(in: .en)
                == "Touch ID can't be used right now. Check it in Settings.")
    }
}
