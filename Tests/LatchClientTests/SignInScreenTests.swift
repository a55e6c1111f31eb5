// The sign-in screen (seed 004 §2 登录方式, §8.2 防暴力破解, §10 错误处理; C1, C4, C8, C11) as synchronous
// narratives over a fake server and a clock the test moves.
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import LatchTestSupport
    import Testing

    @MainActor
    @Suite("Sign-in screen (seed 004 §2, §10, C1, C4, C11)")
    struct SignInScreenTests {
        let service = FakeSignInService()
        let clock = TestClock()
        let utc = TimeZone(identifier: "UTC")!

        func model(
            _ language: LatchLanguage = .zhHans, availability: SignInAvailability = SignInAvailability(),
            external: @escaping @MainActor (ExternalSignInMethod) async throws -> Void = { _ in }
        ) -> SignInScreenModel {
            SignInScreenModel(
                service: service, availability: availability, language: language, timeZone: utc, now: clock.read,
                externalSignIn: external)
        }

        func emailForm(_ language: LatchLanguage = .zhHans) -> SignInScreenModel {
            let model = model(language)
            model.email = "user@example.com"
            model.password = "Tiger7Lake"
            return model
        }

        func phoneForm(_ language: LatchLanguage = .zhHans) -> SignInScreenModel {
            let model = model(language, availability: SignInAvailability(phone: true))
            model.mode = .phoneCode
            model.phone = "138 0013 8000"
            return model
        }

        // MARK: Texts (seed §2.1)

        @Test("seed §2.1 the screen's texts in zh-Hans and English")
        func seed_2_1_texts() {
            let zh = model().strings, en = model(.en).strings

            #expect(
                [zh.title, zh.emailTab, zh.phoneTab, zh.signIn, zh.forgotPassword, zh.noAccount, zh.register] == [
                    "登录", "邮箱登录", "手机号登录", "登录", "忘记密码？", "没有账户？", "注册"
                ])
            #expect(
                [en.title, en.emailTab, en.phoneTab, en.signIn, en.forgotPassword, en.noAccount, en.register] == [
                    "Sign In", "Email", "Phone", "Sign In", "Forgot Password?", "No account yet?", "Sign Up"
                ])
        }

        // MARK: Other methods shown only when available (seed §2.1, C1)

        @Test("C1 Apple, WeChat and Face ID buttons show only when available, Apple (推荐) first")
        func C1_otherMethodsOnlyWhenAvailable() {
            let none = model()
            #expect(none.externalMethods.isEmpty)
            #expect(none.modes == [.emailPassword])

            let all = model(availability: SignInAvailability(apple: true, weChat: true, biometry: .faceID, phone: true))
            #expect(all.externalMethods == [.apple, .weChat, .biometrics(.faceID)])
            #expect(all.externalMethods.map(all.strings.title(for:)) == ["通过Apple登录", "微信登录", "面容登录"])
            #expect(all.modes == [.emailPassword, .phoneCode])

            let touch = model(.en, availability: SignInAvailability(biometry: .touchID))
            #expect(touch.externalMethods.map(touch.strings.title(for:)) == ["Sign in with Touch ID"])
        }

        @Test("C1 a tap on an available method runs the app's sign-in; a cancel shows nothing")
        func C1_externalSignInRunsAndCancelIsSilent() async {
            let service = self.service
            let model = model(availability: SignInAvailability(apple: true)) { method in
                service.calls.append("external \(method)")
                throw CancellationError()
            }

            await model.signIn(with: .apple)
            await model.signIn(with: .weChat) // not offered: nothing runs

            #expect(service.calls == ["external apple"])
            #expect(model.failure == nil)
            #expect(!model.isBusy)
        }

        @Test("C11 a failed Apple sign-in shows the server's message")
        func C11_externalFailureShowsServerMessage() async {
            let model = model(availability: SignInAvailability(apple: true)) { _ in
                throw ScreenErrors.server(.wrongCredentials, status: 401, message: "邮箱或密码错误")
            }

            await model.signIn(with: .apple)

            #expect(model.failure?.message == "邮箱或密码错误")
        }

        // MARK: Email + password

        @Test("C1 登录 needs an address and a password; success signs in")
        func C1_emailPasswordSignIn() async {
            let model = model()
            #expect(!model.canSignIn)
            model.email = "User@Example.com"
            #expect(!model.canSignIn)
            model.password = "Tiger7Lake"
            #expect(model.canSignIn)
            service.answers = [.success(screenUser)]

            await model.signIn()

            #expect(service.calls == ["password user@example.com Tiger7Lake"])
            #expect(model.signedInUser == screenUser)
        }

        @Test("seed §10.2 AUTH_001 shows 邮箱或密码错误 with the tries left (seed §10.1 提示错误次数)")
        func seed_10_2_wrongPasswordShowsTriesLeft() async {
            let model = emailForm()
            service.answers = [
                .failure(ScreenErrors.server(.wrongCredentials, status: 401, message: "邮箱或密码错误", attemptsRemaining: 2))
            ]

            await model.signIn()

            #expect(model.failure?.message == "邮箱或密码错误，还可尝试2次")
            #expect(model.canSignIn)
        }

        @Test("seed §10.2 AUTH_001 in English")
        func seed_10_2_wrongPasswordInEnglish() async {
            let model = emailForm(.en)
            service.answers = [
                .failure(
                    ScreenErrors.server(
                        .wrongCredentials, status: 401, message: "Wrong email or password.", attemptsRemaining: 1))
            ]

            await model.signIn()

            #expect(model.failure?.message == "Wrong email or password. 1 attempt left.")
        }

        @Test("C11 no answer suggests a retry: 网络连接失败，请重试")
        func C11_networkError() async {
            let model = emailForm()
            service.answers = [.failure(ScreenErrors.offline)]

            await model.signIn()

            #expect(model.failure?.message == "网络连接失败，请重试")
        }

        // MARK: Lockout (seed §8.2 连续 5 次错误锁定 5 分钟, §10.1 显示解锁时间; C4)

        @Test("C4 AUTH_002 shows 账号已被锁定 with a countdown to locked_until, 登录 off and 忘记密码？ offered")
        func C4_lockoutCountsDownToLockedUntil() async {
            let model = emailForm()
            let until = clock.now.addingTimeInterval(300)
            service.answers = [
                .failure(ScreenErrors.server(.locked, status: 423, message: "账号已被锁定", lockedUntil: until))
            ]

            await model.signIn()

            #expect(model.failure?.message == "账号已被锁定")
            #expect(model.lockoutDetail == "将于\(hhmm(until))解锁，剩余05:00")
            #expect(model.isLocked)
            #expect(!model.canSignIn)
            #expect(model.offersForgotPassword)
            #expect(model.highlightsForgotPassword)

            clock.advance(by: 1)
            model.tick()
            #expect(model.lockoutDetail == "将于\(hhmm(until))解锁，剩余04:59")

            clock.advance(by: 298.5)
            model.tick()
            #expect(model.lockoutDetail == "将于\(hhmm(until))解锁，剩余00:01")
            #expect(!model.canSignIn)

            clock.advance(by: 0.5)
            model.tick()
            #expect(!model.isLocked)
            #expect(model.lockoutDetail == nil)
            #expect(model.failure == nil)
            #expect(model.canSignIn)
            #expect(!model.highlightsForgotPassword)
        }

        @Test("C4 the hour lock counts down in minutes, in English")
        func C4_hourLockInEnglish() async {
            let model = emailForm(.en)
            let until = clock.now.addingTimeInterval(3600)
            service.answers = [
                .failure(
                    ScreenErrors.server(.locked, status: 423, message: "The account is locked.", lockedUntil: until))
            ]

            await model.signIn()

            #expect(model.failure?.message == "The account is locked.")
            #expect(model.lockoutDetail == "Unlocks at \(hhmm(until)) (60:00 left).")
        }

        @Test("C4 a tap on 登录 during the lock sends nothing")
        func C4_noRequestDuringLock() async {
            let model = emailForm()
            service.answers = [
                .failure(
                    ScreenErrors.server(
                        .locked, status: 423, message: "账号已被锁定", lockedUntil: clock.now.addingTimeInterval(300)))
            ]
            await model.signIn()

            clock.advance(by: 10)
            model.tick()
            await model.signIn()

            #expect(service.calls.count == 1)
        }

        @Test("C4 the lock is the account's: another address can sign in, the locked one still counts down")
        func C4_lockIsPerAccount() async {
            let model = emailForm()
            service.answers = [
                .failure(
                    ScreenErrors.server(
                        .locked, status: 423, message: "账号已被锁定", lockedUntil: clock.now.addingTimeInterval(300)))
            ]
            await model.signIn()

            model.email = "other@example.com"
            #expect(!model.isLocked)
            #expect(model.canSignIn)

            model.email = "USER@example.com"
            #expect(model.isLocked)
            #expect(!model.canSignIn)
        }

        // MARK: Unusual sign-in (C8)

        @Test("C8 an unusual sign-in asks for the mailed code, then signs in")
        func C8_unusualSignInAsksForCode() async {
            let model = emailForm()
            service.answers = [.failure(.signInVerificationRequired(SignInChallenge(id: "ch-1", method: .email)))]

            await model.signIn()

            #expect(model.challengePrompt == "检测到新设备登录，请输入发送至邮箱的6位验证码")
            #expect(model.failure == nil)
            #expect(!model.canSignIn)
            #expect(!model.canAnswerChallenge)

            model.challengeCode = "123456"
            service.answers = [.success(screenUser)]
            await model.answerChallenge()

            #expect(service.calls.last == "challenge ch-1 123456")
            #expect(model.signedInUser == screenUser)
            #expect(model.challenge == nil)
        }

        @Test("C8 a 2FA challenge asks for the authenticator code (English)")
        func C8_totpChallengeInEnglish() async {
            let model = emailForm(.en)
            service.answers = [.failure(.signInVerificationRequired(SignInChallenge(id: "ch-1", method: .totp)))]

            await model.signIn()

            #expect(model.challengePrompt == "New device: enter the 6-digit code from your authenticator app.")
        }

        // MARK: Phone + SMS code (seed §2.1 手机号登录 验证码登录)

        @Test("seed §2.1 获取验证码 needs a number; a mainland number gets +86")
        func seed_2_1_sendCodeNeedsANumber() async {
            let model = model(availability: SignInAvailability(phone: true))
            model.mode = .phoneCode
            model.phone = "12345"
            #expect(model.phoneError == "手机号格式不正确")
            #expect(!model.canSendCode)

            model.phone = "138 0013 8000"
            #expect(model.phoneError == nil)
            service.codeAnswers = [.success(SMSCodeAccepted(expiresIn: 300, resendAfter: 60))]
            await model.sendCode()

            #expect(service.calls == ["sms +8613800138000"])
            #expect(model.notice == "验证码已发送")
        }

        @Test("seed §2.1 the SMS countdown follows resend_after and ticks with the clock")
        func seed_2_1_smsCountdownFollowsResendAfter() async {
            let model = phoneForm()
            service.codeAnswers = [.success(SMSCodeAccepted(expiresIn: 300, resendAfter: 45))]

            await model.sendCode()

            #expect(model.sendCodeTitle == "45秒后重新获取")
            #expect(!model.canSendCode)
            clock.advance(by: 44)
            model.tick()
            #expect(model.sendCodeTitle == "1秒后重新获取")
            clock.advance(by: 1)
            model.tick()
            #expect(model.sendCodeTitle == "获取验证码")
            #expect(model.canSendCode)
        }

        @Test("issue 11 §4 RATE_LIMITED on 获取验证码 counts down retry_after (English)")
        func test_11_4_smsRateLimitedCountsDownRetryAfter() async {
            let model = phoneForm(.en)
            service.codeAnswers = [.failure(ScreenErrors.rateLimited(30, .en))]

            await model.sendCode()

            #expect(model.failure?.message == "Please wait 30 s before asking for another code.")
            #expect(model.sendCodeTitle == "Resend in 30 s")
        }

        @Test("issue 10 a full SMS queue (503 with retry_after) shows the server's message and counts down")
        func test_10_fullSMSQueueCountsDown() async {
            let model = phoneForm()
            service.codeAnswers = [
                .failure(ScreenErrors.server(.internalError, status: 503, message: "服务器内部错误，请稍后重试", retryAfter: 8))
            ]

            await model.sendCode()

            #expect(model.failure?.message == "服务器内部错误，请稍后重试")
            #expect(model.sendCodeTitle == "8秒后重新获取")
        }

        @Test("seed §2.1 登录 with the texted code; AUTH_003 shows 验证码错误 with the tries left")
        func seed_2_1_signInWithCode() async {
            let model = phoneForm()
            model.smsCode = "12345"
            #expect(!model.canSignIn)
            model.smsCode = "123456"
            #expect(model.canSignIn)
            service.answers = [
                .failure(ScreenErrors.server(.wrongCode, status: 400, message: "验证码错误", attemptsRemaining: 3)),
                .success(screenUser)
            ]

            await model.signIn()
            #expect(model.failure?.message == "验证码错误，还可尝试3次")

            await model.signIn()
            #expect(service.calls == ["code +8613800138000 123456", "code +8613800138000 123456"])
            #expect(model.signedInUser == screenUser)
        }

        @Test("C1 the phone form offers no 忘记密码？")
        func C1_phoneFormHasNoForgotPassword() {
            #expect(!phoneForm().offersForgotPassword)
        }

        private func hhmm(_ date: Date) -> String {
            VerificationStrings(.zhHans).clockTime(date, in: utc)
        }
    }
#endif
