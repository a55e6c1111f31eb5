// The registration screen (seed 004 §3 注册界面, §8.2 密码安全; C2, C3, C11) as synchronous narratives
// over a fake server and a clock the test moves.
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import LatchTestSupport
    import Testing

    @MainActor
    @Suite("Registration screen (seed 004 §3, C2, C3)")
    struct RegistrationScreenTests {
        let service = FakeRegistrationService()
        let clock = TestClock()

        func model(_ language: LatchLanguage = .zhHans) -> RegistrationScreenModel {
            RegistrationScreenModel(service: service, language: language, now: clock.read)
        }

        /// A model with every field valid and the terms ticked.
        func filled(_ language: LatchLanguage = .zhHans) -> RegistrationScreenModel {
            let model = model(language)
            model.email = " User@Example.com "
            model.password = "Tiger7Lake"
            model.confirmation = "Tiger7Lake"
            model.termsAccepted = true
            return model
        }

        /// A model on the code step (registration `reg-1`).
        func onCodeStep(_ language: LatchLanguage = .zhHans) async -> RegistrationScreenModel {
            let model = filled(language)
            service.startAnswers = [.success("reg-1")]
            await model.register()
            return model
        }

        // MARK: Seed texts

        @Test("seed §3.2 the screen's texts, exactly, in zh-Hans")
        func seed_3_2_textsInChinese() {
            let strings = model().strings

            #expect(strings.title == "创建账户")
            #expect(strings.emailLabel == "邮箱")
            #expect(strings.emailPlaceholder == "user@example.com")
            #expect(strings.passwordLabel == "密码")
            #expect(strings.confirmPasswordLabel == "确认密码")
            #expect(strings.termsAgreement == "我已阅读并同意《用户协议》和《隐私政策》")
            #expect(strings.register == "注册")
            #expect(strings.haveAccount == "已有账户？")
            #expect(strings.signIn == "登录")
        }

        @Test("seed §3.2 the screen's texts in English")
        func seed_3_2_textsInEnglish() {
            let strings = model(.en).strings

            #expect(strings.title == "Create Account")
            #expect(strings.termsAgreement == "I have read and agree to the Terms of Service and the Privacy Policy.")
            #expect(strings.register == "Sign Up")
            #expect(strings.haveAccount == "Already have an account?")
            #expect(strings.signIn == "Sign In")
        }

        // MARK: Email format (seed §3.1 验证邮箱格式)

        @Test("seed §3.1 an address that is not one says 邮箱格式不正确; nothing is said before typing")
        func seed_3_1_emailFormat() {
            let model = model()
            #expect(model.emailError == nil)

            model.email = "user@example"
            #expect(model.emailError == "邮箱格式不正确")

            model.email = "user@example.com"
            #expect(model.emailError == nil)
            #expect(model.normalizedEmail == "user@example.com")
        }

        @Test("seed §3.1 the email check in English")
        func seed_3_1_emailFormatInEnglish() {
            let model = model(.en)
            model.email = "not an address"

            #expect(model.emailError == "Enter a valid email address.")
        }

        // MARK: Strength meter (seed §3.2 密码强度: ████░░░░ 中等, §8.2 密码强度检测)

        @Test(
            "seed §8.2 the meter: 弱 for letters only or digits only, 中等, 强, 很强",
            arguments: [
                ("tigerlake", "密码强度: 弱", "██░░░░░░"),
                ("12345678", "密码强度: 弱", "██░░░░░░"),
                ("tiger7lake", "密码强度: 中等", "████░░░░"),
                ("Tiger7Lake", "密码强度: 强", "██████░░"),
                ("Tiger7Lake!", "密码强度: 很强", "████████")
            ])
        func seed_8_2_strengthMeter(password: String, text: String, bar: String) {
            let model = model()

            model.password = password

            #expect(model.strengthMeter?.text == text)
            #expect(model.strengthMeter?.bar == bar)
        }

        @Test("seed §3.2 the meter reads as the seed draws it for a medium password: 密码强度: ████░░░░ 中等")
        func seed_3_2_mediumMeterIsHalfFull() throws {
            let model = model()
            model.password = "tiger7lake"

            let meter = try #require(model.strengthMeter)

            #expect(meter.filledSegments == 4)
            #expect(meter.fraction == 0.5)
        }

        @Test("C3 the meter in English, and no meter before typing")
        func C3_strengthMeterInEnglish() {
            let model = model(.en)
            #expect(model.strengthMeter == nil)

            model.password = "Tiger7Lake!"

            #expect(model.strengthMeter?.text == "Password strength: Very strong")
        }

        // MARK: Policy hints (seed §8.2 密码要求)

        @Test("seed §8.2 the requirements are listed and ticked as the user types")
        func seed_8_2_policyHints() {
            let model = model()
            model.password = "tiger"

            #expect(model.ruleHints.map(\.text) == ["最少 8 位", "包含大小写字母", "包含数字", "可选特殊字符"])
            #expect(model.ruleHints.map(\.status) == [.unmet, .unmet, .unmet, .optional])

            model.password = "Tiger7Lake"
            #expect(model.ruleHints.map(\.status) == [.met, .met, .met, .optional])
            #expect(model.passwordAccepted)
        }

        @Test("C3 a common password is refused with its own hint, as the server would")
        func C3_commonPasswordHint() {
            let model = model()

            model.password = "Password1"

            #expect(model.ruleHints.last == PasswordRuleHint(rule: .notCommon, status: .unmet, text: "不能使用常见密码"))
            #expect(!model.passwordAccepted)
        }

        @Test("seed §8.2 the requirements in English")
        func seed_8_2_policyHintsInEnglish() {
            let model = model(.en)
            model.password = "x"

            #expect(
                model.ruleHints.map(\.text) == [
                    "At least 8 characters", "Upper- and lower-case letters", "At least one digit",
                    "Special characters (optional)"
                ])
        }

        // MARK: Confirmation

        @Test("seed §3.2 a different confirmation says 两次输入的密码不一致 and blocks 注册")
        func seed_3_2_confirmationMustMatch() {
            let model = filled()

            model.confirmation = "Tiger7Lakes"

            #expect(model.confirmationError == "两次输入的密码不一致")
            #expect(!model.canRegister)
        }

        // MARK: Terms gate 注册 (seed §3.2 ☑ 我已阅读并同意…)

        @Test("seed §3.2 注册 stays off until the terms are ticked, whatever else is filled")
        func seed_3_2_termsGateRegister() {
            let model = filled()

            model.termsAccepted = false
            #expect(!model.canRegister)

            model.termsAccepted = true
            #expect(model.canRegister)
        }

        @Test("C3 注册 stays off while the password breaks a rule or the email is not one")
        func C3_registerNeedsValidFields() {
            let model = filled()
            model.password = "tiger7lake"
            model.confirmation = "tiger7lake"
            #expect(!model.canRegister)

            model.password = "Tiger7Lake"
            model.confirmation = "Tiger7Lake"
            model.email = "user@"
            #expect(!model.canRegister)
        }

        @Test("C2 注册 with unticked terms sends nothing")
        func C2_registerWithoutTermsSendsNothing() async {
            let model = filled()
            model.termsAccepted = false

            await model.register()

            #expect(service.starts.isEmpty)
            #expect(model.step == .details)
        }

        // MARK: Code step and resend countdown (seed §3.1 发送验证码, 验证邮箱)

        @Test("seed §3.1 注册 mails the code and shows the code step with a 60 s resend countdown")
        func seed_3_1_registerShowsCodeStep() async {
            let model = filled()
            model.nickname = " 小明 "
            service.startAnswers = [.success("reg-1")]

            await model.register()

            #expect(
                service.starts == [
                    .init(email: "user@example.com", password: "Tiger7Lake", nickname: "小明", acceptTerms: true)
                ])
            #expect(model.step == .code(registrationID: "reg-1"))
            #expect(model.strings.codeTitle == "验证邮箱")
            #expect(model.codeSentMessage == "验证码已发送至 user@example.com")
            #expect(model.resendTitle == "60秒后重新发送")
            #expect(!model.canResend)
        }

        @Test("seed §3.1 the resend countdown ticks with the clock and ends in 重新发送")
        func seed_3_1_resendCountdownTicks() async {
            let model = await onCodeStep()

            clock.advance(by: 1)
            model.tick()
            #expect(model.resendTitle == "59秒后重新发送")

            clock.advance(by: 58.5)
            model.tick()
            #expect(model.resendTitle == "1秒后重新发送")
            #expect(!model.canResend)

            clock.advance(by: 0.5)
            model.tick()
            #expect(model.resendTitle == "重新发送")
            #expect(model.canResend)
        }

        @Test("seed §3.1 重新发送 asks again; the new registration is the one verified")
        func seed_3_1_resendReplacesTheRegistration() async {
            let model = await onCodeStep()
            clock.advance(by: 60)
            model.tick()
            service.startAnswers = [.success("reg-2")]

            await model.resend()
            #expect(service.starts.count == 2)
            #expect(model.notice == "新的验证码已发送")
            #expect(model.resendTitle == "60秒后重新发送")

            model.code = "123456"
            service.finishAnswers = [.success(screenUser)]
            await model.verify()

            #expect(service.finishes.map(\.id) == ["reg-2"])
            #expect(model.step == .finished(screenUser))
        }

        @Test("issue 11 §4 RATE_LIMITED on 注册 counts down the server's retry_after before another try")
        func test_11_4_registerRateLimitedCountsDownRetryAfter() async {
            let model = filled()
            service.startAnswers = [.failure(ScreenErrors.rateLimited(42))]

            await model.register()

            #expect(model.step == .details)
            #expect(model.failure?.message == "操作过于频繁，请42秒后再试")
            #expect(model.registerTitle == "42秒后重新发送")
            #expect(!model.canRegister)

            clock.advance(by: 42)
            model.tick()
            #expect(model.registerTitle == "注册")
            #expect(model.canRegister)
        }

        @Test("issue 11 §4 RATE_LIMITED on 重新发送 follows the server's retry_after, not the default minute")
        func test_11_4_resendRateLimitedFollowsRetryAfter() async {
            let model = await onCodeStep()
            clock.advance(by: 60)
            model.tick()
            service.startAnswers = [.failure(ScreenErrors.rateLimited(17))]

            await model.resend()

            #expect(model.step == .code(registrationID: "reg-1"))
            #expect(model.resendTitle == "17秒后重新发送")
        }

        @Test("issue 10 a full mail queue (503 with retry_after) shows the server's message and waits as told")
        func test_10_fullMailQueueWaitsRetryAfter() async {
            let model = filled()
            service.startAnswers = [
                .failure(ScreenErrors.server(.internalError, status: 503, message: "服务器内部错误，请稍后重试", retryAfter: 5))
            ]

            await model.register()

            #expect(model.failure?.message == "服务器内部错误，请稍后重试")
            #expect(model.failure?.isRetryable == true)
            #expect(model.registerTitle == "5秒后重新发送")
        }

        @Test("issue 11 §4 the resend wait is the address's: 更换邮箱 to another address can register at once")
        func test_11_4_resendWaitIsPerAddress() async {
            let model = await onCodeStep()

            model.changeEmail()
            #expect(model.registerTitle == "60秒后重新发送")
            #expect(!model.canRegister)

            model.email = "other@example.com"
            #expect(model.registerTitle == "注册")
            #expect(model.canRegister)
        }

        @Test("C2 验证 needs six digits")
        func C2_verifyNeedsSixDigits() async {
            let model = await onCodeStep()

            model.code = "12345"
            #expect(!model.canVerify)
            model.code = "12345a"
            #expect(!model.canVerify)
            model.code = "123456"
            #expect(model.canVerify)
        }

        @Test("C11 AUTH_003 shows the server's 验证码错误 with the tries left")
        func C11_wrongCodeShowsServerMessageAndTriesLeft() async {
            let model = await onCodeStep()
            model.code = "000000"
            service.finishAnswers = [
                .failure(ScreenErrors.server(.wrongCode, status: 400, message: "验证码错误", attemptsRemaining: 4))
            ]

            await model.verify()

            #expect(model.failure?.message == "验证码错误，还可尝试4次")
            #expect(model.step == .code(registrationID: "reg-1"))
        }

        @Test("C11 a code with no tries left asks for a new one")
        func C11_usedUpCodeAsksForANewOne() async {
            let model = await onCodeStep()
            model.code = "000000"
            service.finishAnswers = [
                .failure(ScreenErrors.server(.wrongCode, status: 400, message: "验证码错误", attemptsRemaining: 0))
            ]

            await model.verify()

            #expect(model.failure?.message == "验证码已失效，请重新发送")
        }

        @Test("C11 AUTH_003 in English")
        func C11_wrongCodeInEnglish() async {
            let model = await onCodeStep(.en)
            model.code = "000000"
            service.finishAnswers = [
                .failure(
                    ScreenErrors.server(
                        .wrongCode, status: 400, message: "The verification code is wrong or has expired.",
                        attemptsRemaining: 1))
            ]

            await model.verify()

            #expect(model.failure?.message == "The verification code is wrong or has expired. 1 attempt left.")
            #expect(model.codeSentMessage == "We sent a 6-digit code to user@example.com.")
            #expect(model.resendTitle == "Resend in 60 s")
        }

        @Test("C11 no answer from the server suggests a retry")
        func C11_networkErrorSuggestsRetry() async {
            let model = filled()
            service.startAnswers = [.failure(ScreenErrors.offline)]

            await model.register()

            #expect(model.failure?.message == "网络连接失败，请重试")
            #expect(model.failure?.isRetryable == true)
            #expect(model.canRegister)
        }

        @Test("C11 a server refusal shows the server's own message")
        func C11_serverMessageIsShown() async {
            let model = filled()
            service.startAnswers = [
                .failure(ScreenErrors.server(.validationFailed, status: 422, message: "请求参数无效", field: "password"))
            ]

            await model.register()

            #expect(model.failure?.message == "请求参数无效")
            #expect(model.failure?.field == "password")
        }

        @Test("seed §3.2 更换邮箱 goes back to the form, keeping what was typed")
        func seed_3_2_changeEmailGoesBack() async {
            let model = await onCodeStep()

            model.changeEmail()

            #expect(model.step == .details)
            #expect(model.email == " User@Example.com ")
            #expect(model.strings.changeEmail == "更换邮箱")
        }
    }
#endif
