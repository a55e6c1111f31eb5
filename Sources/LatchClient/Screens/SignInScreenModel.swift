#if canImport(Observation)
    import Foundation
    import LatchCore
    import Observation

    /// The sign-in screen (seed 004 §2, C1, C11) as a tested model: email + password, phone + SMS code
    /// with its resend countdown, the Apple / WeChat / Face ID buttons the app says are available, the
    /// unusual-sign-in code step, and a lockout (AUTH_002) that counts down to `locked_until` with
    /// "忘记密码？" / "Forgot Password?" offered. `SignInView` only renders it.
    ///
    ///     @State private var model = SignInScreenModel(
    ///         service: client, availability: SignInAvailability(apple: true, biometry: .faceID, phone: true),
    ///         language: .zhHans
    ///     ) { method in try await runExternalSignIn(method) }   // Apple sheet, WeChat, biometric driver
    ///
    /// Time comes from `now` and moves on with ``tick()`` (the view calls it every second).
    @MainActor
    @Observable
    public final class SignInScreenModel {
        /// Which form shows.
        public enum Mode: String, Sendable, Equatable, CaseIterable {
            /// "邮箱登录" / "Email".
            case emailPassword
            /// "手机号登录" / "Phone".
            case phoneCode
        }

        // MARK: Inputs

        /// Which form shows; the phone form only when ``availability`` offers it.
        public var mode: Mode = .emailPassword
        /// The typed email.
        public var email = ""
        /// The typed password.
        public var password = ""
        /// The 👁 of the password field.
        public var isPasswordVisible = false
        /// The typed phone number.
        public var phone = ""
        /// The texted code.
        public var smsCode = ""
        /// The code of an unusual sign-in.
        public var challengeCode = ""
        /// The other methods offered (the app may update it, e.g. when WeChat gets installed).
        public var availability: SignInAvailability

        // MARK: State

        /// An unusual sign-in waits for its code (C8).
        public private(set) var challenge: SignInChallenge?
        /// The signed-in user, once signed in.
        public private(set) var signedInUser: UserInfo?
        /// A request is running.
        public private(set) var isBusy = false
        /// The last failure; cleared by the next request.
        public private(set) var failure: ScreenFailure?
        /// A passing note ("验证码已发送" / "Code sent.").
        public private(set) var notice: String?
        /// The time the countdowns are measured at; ``tick()`` moves it on.
        public private(set) var now: Date
        /// When another text may be asked for.
        public private(set) var smsCountdown: ScreenCountdown?
        /// When the account (or number) lock ends (AUTH_002 `locked_until`).
        public private(set) var lockout: ScreenCountdown?
        /// The address or number the lock is for: another one can still sign in.
        public private(set) var lockedAccount: String?

        /// The texts in the screen's language.
        public let strings: SignInStrings

        @ObservationIgnored private let service: any SignInService
        @ObservationIgnored private let externalSignIn: @MainActor (ExternalSignInMethod) async throws -> Void
        @ObservationIgnored private let clock: @MainActor () -> Date
        @ObservationIgnored private let timeZone: TimeZone

        /// - Parameters:
        ///   - externalSignIn: runs Apple, WeChat or biometric sign-in and finishes it with the SDK
        ///     (`signInWithApple`, `signInWithWeChat`, `finishBiometricSignIn`); throw `CancellationError`
        ///     when the user cancelled, which shows nothing.
        ///   - timeZone: where the lock's end time is shown ("HH:mm").
        public init(
            service: any SignInService, availability: SignInAvailability = SignInAvailability(),
            language: LatchLanguage,
            timeZone: TimeZone = .current, now clock: @escaping @MainActor () -> Date = { Date() },
            externalSignIn: @escaping @MainActor (ExternalSignInMethod) async throws -> Void = { _ in
                throw CancellationError()
            }
        ) {
            self.service = service
            self.availability = availability
            self.strings = SignInStrings(language)
            self.timeZone = timeZone
            self.clock = clock
            self.externalSignIn = externalSignIn
            self.now = clock()
        }

        /// Reads the clock again: the countdowns move on, and an ended lock clears.
        public func tick() {
            now = clock()
            if let lockout, lockout.isOver(at: now) {
                self.lockout = nil
                lockedAccount = nil
                if failure?.code == .locked { failure = nil }
            }
        }

        // MARK: What shows

        /// The forms to choose between: email always, phone when offered.
        public var modes: [Mode] { availability.phone ? [.emailPassword, .phoneCode] : [.emailPassword] }

        /// The buttons under the form: only the methods that are available.
        public var externalMethods: [ExternalSignInMethod] { availability.externalMethods }

        /// Whether a lock is running now for the typed address (or number).
        public var isLocked: Bool {
            guard let lockout, let lockedAccount, lockedAccount == typedAccount else { return false }
            return !lockout.isOver(at: now)
        }

        /// The normalised address or number of the form that shows.
        private var typedAccount: String? {
            switch mode {
            case .emailPassword: EmailAddress(email)?.value
            case .phoneCode: PhoneNumberInput.e164(phone)
            }
        }

        /// The lock's line under "账号已被锁定" / "The account is locked.": "将于10:35解锁，剩余04:59" /
        /// "Unlocks at 10:35 (04:59 left)."
        public var lockoutDetail: String? {
            guard let lockout, isLocked else { return nil }
            return strings.unlocksAt(
                strings.clockTime(lockout.endsAt, in: timeZone),
                countdown: ScreenCountdown.minutesAndSeconds(lockout.secondsLeft(at: now)))
        }

        /// "忘记密码？" / "Forgot Password?" is offered on the email form, always (C12: password sign-in is always there).
        public var offersForgotPassword: Bool { mode == .emailPassword }

        /// "忘记密码？" / "Forgot Password?" stands out: the account is locked, resetting is the way in now.
        public var highlightsForgotPassword: Bool { isLocked && mode == .emailPassword }

        /// "邮箱格式不正确" / "Enter a valid email address.", once something is typed that is not an address.
        public var emailError: String? {
            email.isEmpty || EmailAddress(email) != nil ? nil : strings.invalidEmail
        }

        /// "手机号格式不正确" / "Enter a valid phone number.", once something is typed that is not a number.
        public var phoneError: String? {
            phone.isEmpty || PhoneNumberInput.e164(phone) != nil ? nil : strings.invalidPhone
        }

        /// "登录" / "Sign In" works: the form is filled, no lock runs, nothing else is running.
        public var canSignIn: Bool {
            guard !isBusy, !isLocked, challenge == nil else { return false }
            switch mode {
            case .emailPassword: return EmailAddress(email) != nil && !password.isEmpty
            case .phoneCode: return PhoneNumberInput.e164(phone) != nil && Self.isSixDigits(smsCode)
            }
        }

        /// Seconds before another text may be asked for (0: now).
        public var secondsUntilResend: Int { smsCountdown?.secondsLeft(at: now) ?? 0 }

        /// "获取验证码" / "Send Code" works: a number is typed, the countdown is over, nothing runs.
        public var canSendCode: Bool {
            mode == .phoneCode && PhoneNumberInput.e164(phone) != nil && secondsUntilResend == 0 && !isBusy
        }

        /// "获取验证码" / "Send Code", or "60秒后重新获取" / "Resend in 60 s" while it waits.
        public var sendCodeTitle: String {
            secondsUntilResend > 0 ? strings.resendIn(secondsUntilResend) : strings.sendCode
        }

        /// The unusual sign-in's line, while its code is asked for.
        public var challengePrompt: String? { challenge.map { strings.challengePrompt($0.method) } }

        /// "验证" / "Verify" on the code step works.
        public var canAnswerChallenge: Bool { challenge != nil && Self.isSixDigits(challengeCode) && !isBusy }

        // MARK: Events

        /// "登录" / "Sign In".
        public func signIn() async {
            guard canSignIn else { return }
            switch mode {
            case .emailPassword:
                guard let address = EmailAddress(email)?.value else { return }
                let typed = password
                await run { try await self.service.signInWithPassword(email: address, password: typed) }
            case .phoneCode:
                guard let number = PhoneNumberInput.e164(phone) else { return }
                let code = smsCode
                await run { try await self.service.signInWithCode(phone: number, code: code) }
            }
        }

        /// "获取验证码" / "Send Code": texts a code, then counts down `resend_after`.
        public func sendCode() async {
            guard canSendCode, let number = PhoneNumberInput.e164(phone) else { return }
            await perform {
                do {
                    let accepted = try await self.service.sendSignInCode(phone: number)
                    self.tick()
                    self.smsCountdown = ScreenCountdown(seconds: accepted.resendAfter, from: self.now)
                    self.notice = self.strings.codeSent
                } catch let error as LatchClientError where error.serverError?.retryAfter != nil {
                    // Too soon for this number (429), or the SMS queue is full (503): the server's wait drives the countdown.
                    let wait = error.serverError?.retryAfter ?? 0
                    self.tick()
                    self.smsCountdown = ScreenCountdown(seconds: wait, from: self.now)
                    self.failure =
                        error.code == .rateLimited
                        ? ScreenFailure(
                            message: self.strings.waitBeforeSending(wait), code: .rateLimited, retryAfter: wait,
                            isRetryable: true)
                        : ScreenFailure(error, language: self.strings.language)
                }
            }
        }

        /// "验证" / "Verify" on the unusual sign-in's code step.
        public func answerChallenge() async {
            guard canAnswerChallenge, let challenge else { return }
            let code = challengeCode
            await run { try await self.service.answerSignInChallenge(id: challenge.id, code: code) }
        }

        /// "返回" / "Back" from the code step: the form again.
        public func leaveChallenge() {
            guard !isBusy else { return }
            challenge = nil
            challengeCode = ""
            failure = nil
        }

        /// A tap on Apple, WeChat or Face ID: the app's sign-in runs; a cancel shows nothing.
        public func signIn(with method: ExternalSignInMethod) async {
            guard externalMethods.contains(method), !isBusy else { return }
            await perform {
                do {
                    try await self.externalSignIn(method)
                } catch is CancellationError {
                    return
                }
            }
        }

        // MARK: Requests

        private func run(_ signIn: @MainActor () async throws -> UserInfo) async {
            await perform {
                let user = try await signIn()
                self.signedInUser = user
                self.challenge = nil
                self.challengeCode = ""
            }
        }

        private func perform(_ work: @MainActor () async throws -> Void) async {
            isBusy = true
            failure = nil
            notice = nil
            do {
                try await work()
            } catch LatchClientError.signInVerificationRequired(let challenge) {
                self.challenge = challenge
                challengeCode = ""
            } catch {
                tick()
                show(ScreenFailure(error, language: strings.language))
            }
            isBusy = false
        }

        private func show(_ failure: ScreenFailure) {
            var shown = failure
            switch failure.code {
            case .locked:
                if let until = failure.lockedUntil {
                    lockout = ScreenCountdown(endsAt: until)
                    lockedAccount = typedAccount
                }
            case .wrongCredentials, .wrongCode:
                if let left = failure.attemptsRemaining, left > 0 {
                    shown.message = strings.joined(failure.message, strings.attemptsRemaining(left))
                }
            case .rateLimited, .sessionExpired, .validationFailed, .malformedBody, .payloadTooLarge, .notFound,
                .methodNotAllowed,
                .unsupportedMediaType, .conflict, .verificationRequired, .verificationInvalid, .noVerificationMethod,
                .limitReached, .internalError, .accountDisabled, .securityHold, .accountFrozen, .policyLimit,
                .newValueLocked, .dpopInvalid, .useDPoPNonce, nil:
                break
            }
            self.failure = shown
        }

        private static func isSixDigits(_ text: String) -> Bool {
            text.count == 6 && text.allSatisfy { $0.isASCII && $0.isWholeNumber }
        }
    }
#endif
