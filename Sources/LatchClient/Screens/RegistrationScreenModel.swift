#if canImport(Observation)
    import Foundation
    import LatchCore
    import Observation

    /// The registration screen (seed 004 §3, C2) as a tested model: the email format check, the
    /// strength meter and policy hints, the confirmation, the terms checkbox that gates "注册" / "Sign Up", then the
    /// emailed-code step with its resend countdown. `RegistrationView` only renders it.
    ///
    ///     @State private var model = RegistrationScreenModel(service: client, language: .zhHans)
    ///     var body: some View { RegistrationView(model: model, showTerms: …, showSignIn: …) }
    ///
    /// Time comes from `now` and moves on with ``tick()`` (the view calls it every second), so tests
    /// decide it.
    @MainActor
    @Observable
    public final class RegistrationScreenModel {
        /// Seconds between two codes to one address: the server's resend interval. A server that says
        /// otherwise (RATE_LIMITED `retry_after`) wins.
        public static let resendInterval = 60

        /// Where the user is.
        public enum Step: Equatable, Sendable {
            /// Email, password, confirmation, terms.
            case details
            /// The code was mailed; `registrationID` is the registration it answers.
            case code(registrationID: String)
            /// The account exists and is signed in.
            case finished(UserInfo)
        }

        // MARK: Inputs

        /// The typed email.
        public var email = ""
        /// The typed password.
        public var password = ""
        /// The typed confirmation.
        public var confirmation = ""
        /// An optional nickname (seed §3.1 完善资料).
        public var nickname = ""
        /// The 👁 of the password field.
        public var isPasswordVisible = false
        /// The 👁 of the confirmation field.
        public var isConfirmationVisible = false
        /// The terms checkbox; unticked at first.
        public var termsAccepted = false
        /// The typed code.
        public var code = ""

        // MARK: State

        /// Where the user is.
        public private(set) var step: Step = .details
        /// A request is running: buttons are disabled.
        public private(set) var isBusy = false
        /// The last failure, shown under the form; cleared by the next request.
        public private(set) var failure: ScreenFailure?
        /// A passing note ("新的验证码已发送" / "A new code is on its way.").
        public private(set) var notice: String?
        /// The time the countdowns are measured at; ``tick()`` moves it on.
        public private(set) var now: Date
        /// When the next code may be asked for.
        public private(set) var resendCountdown: ScreenCountdown?
        /// The address the countdown is for: the server limits sends per address.
        public private(set) var resendCountdownAddress: String?

        /// The texts in the screen's language.
        public let strings: RegistrationStrings
        /// The rules the password is held to (the server's).
        public let policy: PasswordPolicy

        @ObservationIgnored private let service: any RegistrationService
        @ObservationIgnored private let clock: @MainActor () -> Date

        public init(
            service: any RegistrationService, language: LatchLanguage, policy: PasswordPolicy = .standard,
            now clock: @escaping @MainActor () -> Date = { Date() }
        ) {
            self.service = service
            self.strings = RegistrationStrings(language)
            self.policy = policy
            self.clock = clock
            self.now = clock()
        }

        /// Reads the clock again: the countdowns move on.
        public func tick() {
            now = clock()
        }

        // MARK: Details step

        /// The normalised address, when the email looks like one.
        public var normalizedEmail: String? { EmailAddress(email)?.value }

        /// "邮箱格式不正确" / "Enter a valid email address.", once something is typed that is not an address.
        public var emailError: String? {
            email.isEmpty || normalizedEmail != nil ? nil : strings.invalidEmail
        }

        /// The meter, once something is typed.
        public var strengthMeter: PasswordStrengthMeter? {
            password.isEmpty ? nil : PasswordStrengthMeter(strength: PasswordStrength(of: password), strings: strings)
        }

        /// The requirements, ticked for the typed password.
        public var ruleHints: [PasswordRuleHint] {
            PasswordRuleHint.hints(for: password, policy: policy, strings: strings)
        }

        /// Whether the password meets every requirement.
        public var passwordAccepted: Bool { policy.accepts(password) }

        /// "两次输入的密码不一致" / "The passwords do not match.", once a confirmation is typed that differs.
        public var confirmationError: String? {
            confirmation.isEmpty || confirmation == password ? nil : strings.passwordsDiffer
        }

        /// Seconds before a code may be asked for again to the typed address (0: now).
        public var secondsUntilResend: Int {
            guard let resendCountdown, resendCountdownAddress == normalizedEmail else { return 0 }
            return resendCountdown.secondsLeft(at: now)
        }

        /// "注册" / "Sign Up" works: a valid address, an acceptable password, the same confirmation, the terms ticked,
        /// nothing running, and no wait the server asked for.
        public var canRegister: Bool {
            normalizedEmail != nil && passwordAccepted && confirmation == password && termsAccepted && !isBusy
                && secondsUntilResend == 0
        }

        /// The "注册" / "Sign Up" title, or the wait the server asked for ("60秒后重新发送" / "Resend in 60 s") while it lasts.
        public var registerTitle: String {
            secondsUntilResend > 0 ? strings.resendIn(secondsUntilResend) : strings.register
        }

        /// "注册" / "Sign Up": asks the server to mail the code, then shows the code step.
        public func register() async {
            guard canRegister, let address = normalizedEmail else { return }
            if let id = await sendCode(to: address) {
                code = ""
                step = .code(registrationID: id)
            }
        }

        // MARK: Code step

        /// "验证码已发送至 …" / "We sent a 6-digit code to …".
        public var codeSentMessage: String { strings.codeSent(to: normalizedEmail ?? email) }

        /// "验证" / "Verify" works: six digits typed and nothing running.
        public var canVerify: Bool {
            guard case .code = step else { return false }
            return code.count == 6 && code.allSatisfy { $0.isASCII && $0.isWholeNumber } && !isBusy
        }

        /// "重新发送" / "Resend Code" works: the countdown is over and nothing runs.
        public var canResend: Bool {
            guard case .code = step else { return false }
            return secondsUntilResend == 0 && !isBusy
        }

        /// The resend button's title: "重新发送" / "Resend Code", or "60秒后重新发送" / "Resend in 60 s" while it waits.
        public var resendTitle: String {
            secondsUntilResend > 0 ? strings.resendIn(secondsUntilResend) : strings.resend
        }

        /// "验证" / "Verify": sends the code; the account is created and signed in.
        public func verify() async {
            guard canVerify, case .code(let id) = step else { return }
            let typed = code
            await run {
                let user = try await self.service.finishRegistration(id: id, code: typed)
                self.step = .finished(user)
            } failed: { failure in
                self.failure = self.codeFailure(failure)
            }
        }

        /// "重新发送" / "Resend Code": a new code (and registration id) replaces the old one.
        public func resend() async {
            guard canResend, let address = normalizedEmail else { return }
            if let id = await sendCode(to: address) {
                code = ""
                step = .code(registrationID: id)
                notice = strings.codeResent
            }
        }

        /// "更换邮箱" / "Change Email": back to the details; the countdown still holds for the same address, not for another.
        public func changeEmail() {
            guard case .code = step, !isBusy else { return }
            step = .details
            code = ""
            failure = nil
            notice = nil
        }

        // MARK: Requests

        private func sendCode(to address: String) async -> String? {
            var id: String?
            let name = nickname.trimmingCharacters(in: .whitespacesAndNewlines)
            let (typedPassword, accepted) = (password, termsAccepted)
            await run {
                id = try await self.service.startRegistration(
                    email: address, password: typedPassword, nickname: name.isEmpty ? nil : name, acceptTerms: accepted)
                self.tick()
                self.resendCountdown = ScreenCountdown(seconds: Self.resendInterval, from: self.now)
                self.resendCountdownAddress = address
            } failed: { failure in
                if let wait = failure.retryAfter {
                    // Too soon for this address (429), or the mail queue is full (503): wait as the server says.
                    self.resendCountdown = ScreenCountdown(seconds: wait, from: self.now)
                    self.resendCountdownAddress = address
                    self.failure =
                        failure.code == .rateLimited
                        ? ScreenFailure(
                            message: self.strings.waitBeforeSending(wait), code: .rateLimited, retryAfter: wait,
                            isRetryable: true)
                        : failure
                } else {
                    self.failure = failure
                }
            }
            return id
        }

        /// AUTH_003 reads "验证码错误" / "The verification code is wrong or has expired." with the tries left, or asks
        /// for a new code when none are.
        private func codeFailure(_ failure: ScreenFailure) -> ScreenFailure {
            guard failure.code == .wrongCode, let left = failure.attemptsRemaining else { return failure }
            var shown = failure
            shown.message =
                left > 0 ? strings.joined(failure.message, strings.attemptsRemaining(left)) : strings.codeUsedUp
            return shown
        }

        private func run(_ work: @MainActor () async throws -> Void, failed: @MainActor (ScreenFailure) -> Void) async {
            isBusy = true
            failure = nil
            notice = nil
            tick()
            do {
                try await work()
            } catch {
                tick()
                failed(ScreenFailure(error, language: strings.language))
            }
            isBusy = false
        }
    }
#endif
