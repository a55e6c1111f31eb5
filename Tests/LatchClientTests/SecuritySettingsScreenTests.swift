// The security settings screen (seed 004 §6.2 安全设置, §9 生物识别; D1, D2, C8) as synchronous narratives
// over a fake server and a fake verification page.
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    @MainActor
    @Suite("Security settings screen (seed 004 §6.2, §9, D1, D2)")
    struct SecuritySettingsScreenTests {
        let service = FakeSecurityService()
        let verifier = FakeVerifier()

        func loaded(_ language: LatchLanguage = .zhHans) async -> SecuritySettingsModel {
            let model = SecuritySettingsModel(service: service, language: language, verify: verifier.run)
            await model.load()
            return model
        }

        // MARK: Texts (seed §6.2 安全设置)

        @Test("seed §6.2 the sign-in protections, exactly as the seed words them")
        func seed_6_2_texts() async {
            let model = await loaded()

            #expect(model.strings.notifyNewDevices == "新设备登录时通知")
            #expect(model.strings.verifyUnusualSignIns == "异常登录时强制验证")
            #expect(model.strings.title == "安全设置")
            #expect(model.twoFactorState == "未开启")
            #expect(model.twoFactorAction == "开启")
            #expect(model.fundPasswordState == "未设置")
            #expect(model.fundPasswordAction == "设置资金密码")
            #expect(model.biometricTitle == "Face ID")
        }

        @Test("seed §6.2 the texts in English")
        func seed_6_2_textsInEnglish() async {
            service.status.twoFactorEnabled = true
            service.status.fundPasswordSet = true
            let model = await loaded(.en)

            #expect(model.strings.notifyNewDevices == "Notify me of sign-ins from new devices")
            #expect(model.strings.verifyUnusualSignIns == "Verify unusual sign-ins")
            #expect(model.twoFactorState == "On")
            #expect(model.twoFactorAction == "Turn Off")
            #expect(model.fundPasswordAction == "Change Fund Password")
        }

        // MARK: Face ID / Touch ID (seed §9)

        @Test("seed §9 turning Face ID on runs the biometric check and binds; off unbinds")
        func seed_9_biometricsOnAndOff() async {
            let model = await loaded()

            await model.setBiometricSignIn(true)
            #expect(model.status?.biometricSignInEnabled == true)

            await model.setBiometricSignIn(false)
            #expect(model.status?.biometricSignInEnabled == false)
            #expect(service.calls == ["status", "enable biometrics token=-", "disable biometrics"])
        }

        @Test("B5 an old session: the bind asks for a verification of bind_device, then binds with its token")
        func B5_bindAfterVerification() async {
            let model = await loaded()
            service.failures = [ScreenErrors.verificationRequired]

            await model.setBiometricSignIn(true)

            #expect(verifier.opened.map(\.action) == ["bind_device"])
            #expect(verifier.opened.first?.localizedReason == "验证身份以开启面容登录")
            #expect(service.calls.suffix(2) == ["enable biometrics token=-", "enable biometrics token=vt-1"])
            #expect(model.status?.biometricSignInEnabled == true)
        }

        @Test("A4 a cancelled verification page changes nothing and says nothing")
        func A4_cancelledVerificationChangesNothing() async {
            let model = await loaded()
            service.failures = [ScreenErrors.verificationRequired]
            verifier.result = .cancelled

            await model.setBiometricSignIn(true)

            #expect(model.status?.biometricSignInEnabled == false)
            #expect(model.failure == nil)
            #expect(service.calls.count == 2)
        }

        @Test("B1 Face ID not enrolled: the switch cannot be turned on, and says why")
        func B1_unavailableBiometricsExplained() async {
            service.status.biometricUnavailable = .notEnrolled
            let model = await loaded()

            #expect(!model.canToggleBiometrics)
            #expect(model.biometricDetail == "未设置Face ID，请在系统设置中录入")
            #expect(model.showsBiometricRow)
        }

        @Test("B1 a device without biometrics shows no biometric row")
        func B1_noSensorNoRow() async {
            service.status = SecurityStatus(
                biometry: nil, biometricUnavailable: .notSupported, biometricSignInEnabled: false,
                twoFactorEnabled: false,
                fundPasswordSet: false, verifyUnusualSignIns: true)
            let model = await loaded()

            #expect(!model.showsBiometricRow)
        }

        @Test("B2 a failed biometric check leaves it off with a message; a cancel says nothing")
        func B2_failedCheckMessageCancelSilent() async {
            let model = await loaded()
            service.enableResult = .notVerified(BiometricFailure(code: .authenticationFailed))
            await model.setBiometricSignIn(true)
            #expect(model.failure?.message == "Face ID验证未通过，未开启")

            service.enableResult = .notVerified(BiometricFailure(code: .userCancel))
            await model.setBiometricSignIn(true)
            #expect(model.failure == nil)
            #expect(model.status?.biometricSignInEnabled == false)
        }

        // MARK: 2FA (D1)

        @Test("D1 turning 2FA on: the secret, the first code, the recovery codes shown once, then 已开启")
        func D1_enableTwoFactor() async {
            let model = await loaded()

            await model.changeTwoFactor()
            #expect(model.twoFactorSetup == .enterCode(service.enrollment))
            #expect(model.strings.twoFactorEnterCode == "请输入身份验证器中的6位验证码")
            #expect(!model.canConfirmTwoFactor)

            model.twoFactorCode = "123456"
            await model.confirmTwoFactor()
            #expect(model.twoFactorSetup == .recoveryCodes(["aaaa-bbbb", "cccc-dddd"]))
            #expect(model.status?.twoFactorEnabled == true)

            model.closeTwoFactorSetup()
            #expect(model.twoFactorSetup == nil)
            #expect(model.twoFactorState == "已开启")
            #expect(model.notice == "两步验证已开启")
            #expect(service.calls == ["status", "totp enroll token=-", "totp activate 123456"])
        }

        @Test("D1 the setup sheet shows while a setup runs; dismissing it during the code step leaves 2FA off")
        func D1_dismissedSetupLeavesTwoFactorOff() async {
            let model = await loaded()
            #expect(!model.isTwoFactorSetupPresented)
            #expect(model.biometricSwitch == false)
            #expect(model.unusualSignInSwitch == true)

            await model.changeTwoFactor()
            #expect(model.isTwoFactorSetupPresented)
            model.isTwoFactorSetupPresented = false

            #expect(model.twoFactorSetup == nil)
            #expect(model.twoFactorState == "未开启")
            #expect(model.notice == nil)
        }

        @Test("D1 a wrong first code keeps the setup open with the server's message")
        func D1_wrongFirstCode() async {
            let model = await loaded()
            await model.changeTwoFactor()
            model.twoFactorCode = "000000"
            service.failures = [ScreenErrors.server(.wrongCode, status: 400, message: "验证码错误")]

            await model.confirmTwoFactor()

            #expect(model.failure?.message == "验证码错误")
            #expect(model.twoFactorSetup == .enterCode(service.enrollment))
            #expect(model.status?.twoFactorEnabled == false)
        }

        @Test("D1 turning 2FA off always runs the verification page for disable_totp first")
        func D1_disableNeedsVerification() async {
            service.status.twoFactorEnabled = true
            let model = await loaded()

            await model.changeTwoFactor()

            #expect(verifier.opened.map(\.action) == ["disable_totp"])
            #expect(service.calls.last == "totp disable token=vt-1")
            #expect(model.twoFactorState == "未开启")
            #expect(model.notice == "两步验证已关闭")
        }

        @Test("D1 a verification page that fails shows why, and 2FA stays on")
        func D1_failedVerificationShowsWhy() async {
            service.status.twoFactorEnabled = true
            let model = await loaded()
            verifier.result = .failed(.sessionExpired)

            await model.changeTwoFactor()

            #expect(model.failure?.message == "登录已过期")
            #expect(model.status?.twoFactorEnabled == true)
            #expect(service.calls == ["status"])
        }

        // MARK: Fund password (D2)

        @Test(
            "D2 the fund-password rules, shown as the user types",
            arguments: [
                ("12", nil), ("12a", "资金密码为6位数字"), ("111111", "不能使用相同的数字"), ("123456", "不能使用连续的数字"),
                ("654321", "不能使用连续的数字"), ("135790", nil)
            ] as [(String, String?)])
        func D2_fundPasswordRules(typed: String, error: String?) async {
            let model = await loaded()
            model.editFundPassword()

            model.newFundPassword = typed

            #expect(model.newFundPasswordError == error)
        }

        @Test("D2 setting the fund password: six good digits, confirmed; an old session verifies first")
        func D2_setFundPassword() async {
            let model = await loaded()
            model.editFundPassword()
            #expect(!model.asksForCurrentFundPassword)
            model.newFundPassword = "135790"
            model.fundPasswordConfirmation = "135791"
            #expect(model.fundPasswordConfirmationError == "两次输入的资金密码不一致")
            #expect(!model.canSaveFundPassword)

            model.fundPasswordConfirmation = "135790"
            #expect(model.canSaveFundPassword)
            service.failures = [ScreenErrors.verificationRequired]
            await model.saveFundPassword()

            #expect(verifier.opened.map(\.action) == ["set_fund_password"])
            #expect(service.calls.suffix(2) == ["fund 135790 current=- token=-", "fund 135790 current=- token=vt-1"])
            #expect(model.fundPasswordState == "已设置")
            #expect(!model.isEditingFundPassword)
            #expect(model.notice == "资金密码已设置")
        }

        @Test("D2 changing it needs the current one; a wrong one says 资金密码错误 with the tries left")
        func D2_changeFundPassword() async {
            service.status.fundPasswordSet = true
            let model = await loaded()
            model.editFundPassword()
            #expect(model.asksForCurrentFundPassword)
            model.newFundPassword = "135790"
            model.fundPasswordConfirmation = "135790"
            #expect(!model.canSaveFundPassword)

            model.currentFundPassword = "246802"
            service.failures = [ScreenErrors.server(.wrongCode, status: 400, message: "验证码错误", attemptsRemaining: 2)]
            await model.saveFundPassword()
            #expect(model.failure?.message == "资金密码错误，还可尝试2次")
            #expect(model.isEditingFundPassword)

            await model.saveFundPassword()
            #expect(service.calls.last == "fund 135790 current=246802 token=-")
            #expect(model.notice == "资金密码已修改")
            #expect(verifier.opened.isEmpty)
        }

        @Test("D2 the same as the login password is refused with the rule's text (English)")
        func D2_sameAsLoginPassword() async {
            let model = await loaded(.en)
            model.editFundPassword()
            model.newFundPassword = "135790"
            model.fundPasswordConfirmation = "135790"
            service.failures = [
                ScreenErrors.server(
                    .validationFailed, status: 422, message: "The request is invalid.", field: "fund_password",
                    reasons: ["same_as_login_password"])
            ]

            await model.saveFundPassword()

            #expect(model.failure?.message == "The fund password must differ from the login password.")
        }

        // MARK: Unusual sign-in check (seed §6.2 ☑ 异常登录时强制验证)

        @Test("seed §6.2 turning the unusual sign-in check off verifies first when the server asks; on needs nothing")
        func seed_6_2_unusualSignInToggle() async {
            let model = await loaded()
            service.failures = [ScreenErrors.verificationRequired]

            await model.setVerifyUnusualSignIns(false)
            #expect(verifier.opened.map(\.action) == ["disable_unusual_sign_in_check"])
            #expect(model.status?.verifyUnusualSignIns == false)

            await model.setVerifyUnusualSignIns(true)
            #expect(
                service.calls.suffix(3) == ["unusual false token=-", "unusual false token=vt-1", "unusual true token=-"]
            )
            #expect(model.status?.verifyUnusualSignIns == true)
            #expect(verifier.opened.count == 1)
        }

        @Test("23_1 新设备登录时通知 is a switch: off verifies first when the server asks; on needs nothing")
        func test_23_1_newDeviceNoticeToggle() async {
            let model = await loaded()
            #expect(model.strings.notifyNewDevices == "新设备登录时通知")
            #expect(model.newDeviceNoticeSwitch == true, "on by default")
            service.failures = [ScreenErrors.verificationRequired]

            await model.setNotifyNewDevices(false)
            #expect(verifier.opened.map(\.action) == ["disable_new_device_notice"])
            #expect(verifier.opened.first?.localizedReason == "验证身份以关闭新设备登录通知")
            #expect(model.status?.notifyNewDevices == false)
            #expect(model.status?.verifyUnusualSignIns == true)

            await model.setNotifyNewDevices(false)
            await model.setNotifyNewDevices(true)
            #expect(
                service.calls.suffix(3) == ["notice false token=-", "notice false token=vt-1", "notice true token=-"],
                "no call when the switch does not move")
            #expect(model.status?.notifyNewDevices == true)
            #expect(verifier.opened.count == 1)
        }

        @Test("C11 a failed load suggests a retry")
        func C11_failedLoad() async {
            service.failures = [ScreenErrors.offline]

            let model = await loaded()

            #expect(model.status == nil)
            #expect(model.failure?.message == "网络连接失败，请重试")
        }
    }
#endif
