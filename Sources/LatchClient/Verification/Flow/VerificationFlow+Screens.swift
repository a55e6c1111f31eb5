import Foundation
import LatchCore

/// Builds the screen for each page of the flow: the texts, the buttons a page offers, their
/// accessibility descriptions and the announcement. Pure; called only by `VerificationFlow`.
struct VerificationScreens {
    typealias Session = VerificationFlow.Session
    typealias Notice = VerificationFlow.Notice

    let strings: VerificationStrings
    let timeZone: TimeZone
    /// The caller's description of the action (seed 000 §5.1), shown on every page.
    var operationDescription: String? = nil
    /// What the policy asks for (issue 30 §3: "需要两项验证" / "Two verifications are needed." and why), shown on
    /// every page once the verification is open; `nil` when one verification is enough.
    var requirement: String? = nil

    // MARK: Pages

    func preparing() -> VerificationScreen {
        screen(
            .preparing, icon: .progress, title: strings.verificationTitle, message: strings.preparing,
            buttons: [cancel()], isBusy: true)
    }

    func startFailed(_ problem: VerificationFlow.StartProblem) -> VerificationScreen {
        let message: String
        switch problem {
        case .network: message = strings.networkFailure
        case .server: message = strings.startFailure
        }
        return screen(
            .startFailed, icon: .warning, title: strings.verificationTitle, message: message, tone: .warning,
            buttons: [button(.retry, strings.retry, hint: strings.restartHint, role: .primary), cancel()])
    }

    func permissionExplanation(_ session: Session, sensor: BiometryKind) -> VerificationScreen {
        screen(
            .permissionExplanation, icon: icon(for: sensor), title: strings.title(for: sensor),
            message: strings.permissionExplanation,
            buttons: [button(.continue, strings.continue, hint: strings.continueHint(sensor), role: .primary)]
                + switches(session, sensor: sensor) + [cancel()])
    }

    func permissionDenied(_ session: Session, sensor: BiometryKind) -> VerificationScreen {
        var buttons = switches(session, sensor: sensor)
        if let first = buttons.indices.first {
            buttons[first].role = .primary
            buttons[first].keyboardShortcut = .defaultAction
        }
        buttons.append(button(.openSettings, strings.openSettings, hint: strings.openSettingsHint, role: .secondary))
        buttons.append(cancel())
        return screen(
            .permissionDenied, icon: .warning, title: strings.title(for: sensor), message: strings.permissionDenied,
            tone: .warning, buttons: buttons)
    }

    func biometric(_ session: Session, sensor: BiometryKind) -> VerificationScreen {
        screen(
            .biometric, icon: icon(for: sensor), title: strings.title(for: sensor),
            message: strings.biometricMessage(for: sensor), buttons: switches(session, sensor: sensor) + [cancel()])
    }

    func biometricRetry(
        _ session: Session, sensor: BiometryKind, reason: VerificationFlow.RetryReason, failures: Int
    ) -> VerificationScreen {
        let message: String
        let tone: VerificationScreen.Tone
        switch reason {
        case .failed:
            message = strings.attemptFailed(failures)
            tone = .warning
        case .interrupted:
            message = strings.interrupted(sensor)
            tone = .regular
        case .unexpected:
            message = strings.unexpectedFailure(sensor)
            tone = .warning
        case .network:
            message = strings.networkFailure
            tone = .warning
        case .serverError:
            message = strings.serverFailure
            tone = .warning
        }
        let remaining = VerificationFlow.maximumBiometricFailures - failures
        let detail: String? =
            failures == 0
            ? nil
            : remaining == 1
                ? strings.lastBiometricAttempt(then: session.passwordTarget?.method)
                : strings.attemptsRemaining(remaining)
        return screen(
            .biometricRetry, icon: icon(for: sensor), title: strings.title(for: sensor), message: message,
            detail: detail, tone: tone,
            buttons: [button(.retry, strings.retry, hint: strings.retryHint(sensor), role: .primary)]
                + switches(session, sensor: sensor) + [cancel()])
    }

    func biometricChecking(sensor: BiometryKind) -> VerificationScreen {
        screen(
            .biometricChecking, icon: icon(for: sensor), title: strings.title(for: sensor), message: strings.verifying,
            buttons: [cancel()], isBusy: true)
    }

    func secret(
        _ session: Session, _ method: VerificationFlow.SecretMethod, notice: Notice?, busy: Bool, now: Date? = nil
    ) -> VerificationScreen {
        if method == .emailCode { return emailCode(session, notice: notice, busy: busy, now: now) }
        let (noticeMessage, noticeDetail) = notice.map { lines(for: $0, on: method) } ?? (nil, nil)
        let prompt: String
        let field: VerificationInputField
        let kind: VerificationScreen.Kind
        let title: String
        let symbol: VerificationIcon.Symbol
        switch method {
        case .totp:
            kind = .oneTimeCode
            title = strings.oneTimeCodeTitle
            symbol = .oneTimeCode
            prompt = strings.oneTimeCodePrompt
            field = VerificationInputField(
                kind: .oneTimeCode(length: VerificationFlow.codeLength), label: strings.oneTimeCodeLabel,
                placeholder: strings.oneTimeCodePlaceholder, accessibilityHint: strings.oneTimeCodeHint,
                isSecure: false,
                isEnabled: !busy)
        case .fundPassword:
            kind = .fundPassword
            title = strings.fundPasswordTitle
            symbol = .fundPassword
            prompt = strings.fundPasswordPrompt
            field = VerificationInputField(
                kind: .fundPassword(length: VerificationFlow.codeLength), label: strings.fundPasswordLabel,
                placeholder: strings.fundPasswordPlaceholder, accessibilityHint: strings.fundPasswordHint,
                isSecure: true, isEnabled: !busy)
        case .emailCode:
            preconditionFailure("the emailed code's page is built by emailCode(_:notice:busy:now:)")
        }
        var buttons = [
            button(.submit, strings.submit, hint: strings.submitHint(method.method), role: .primary, enabled: !busy)
        ]
        buttons += waysOut(of: method, session, notice: notice, busy: busy)
        let message = busy ? strings.verifying : (noticeMessage ?? prompt)
        let detail = busy ? nil : noticeDetail
        return screen(
            kind, icon: busy ? .progress : symbol, title: title, message: message, detail: detail,
            tone: notice == nil || busy ? .regular : .warning, input: field, buttons: buttons, isBusy: busy)
    }

    func expired(_ reason: VerificationFlow.ExpiryReason) -> VerificationScreen {
        let message: String
        switch reason {
        case .timedOut: message = strings.timedOut
        case .attemptsUsedUp: message = strings.attemptsUsedUp
        case .invalidated: message = strings.verificationInvalid
        case .holdEnded: message = strings.holdEnded
        case .newValueLockEnded: message = strings.newValueLockEnded
        }
        return screen(
            .expired, icon: .warning, title: strings.verificationTitle, message: message, tone: .warning,
            buttons: [button(.retry, strings.restart, hint: strings.restartHint, role: .primary), cancel()])
    }

    func noMethodAvailable(_ session: Session, notice: Notice?) -> VerificationScreen {
        let message: String
        let detail: String?
        if let notice {
            message = lines(for: notice, on: nil).message
            detail = strings.noOtherMethodAvailable
        } else {
            message = strings.noMethodAvailable
            detail = nil
        }
        return screen(
            .noMethodAvailable, icon: .warning, title: strings.verificationTitle, message: message, detail: detail,
            tone: .warning, buttons: biometricRepairs(session, notice: notice, enabled: true) + [cancel()])
    }

    /// The hold page (issue 19 §2) at `now`: what is held (the title), the reason's general line, why, until
    /// when and the time left; only "关闭" / "Close". The announcement leaves out the seconds, so that it
    /// stays the same while the countdown moves (it is said once).
    func hold(_ hold: VerificationHold, now: Date) -> VerificationScreen {
        let seconds = ScreenCountdown(endsAt: hold.holdUntil).secondsLeft(at: now)
        let countdown = VerificationCountdown(
            endsAt: hold.holdUntil, until: strings.holdUntil(hold.holdUntil, in: timeZone),
            remaining: strings.holdRemaining(seconds: seconds),
            accessibilityLabel: strings.holdRemainingLabel(seconds: seconds))
        let message = strings.holdMessage(hold.action, hours: hold.hours)
        let detail = strings.holdReason(hold.knownReason)
        let close = button(.cancel, strings.close, hint: strings.closeHint, role: .cancel)
        return VerificationScreen(
            kind: .securityHold, icon: VerificationIcon(symbol: .hold, accessibilityLabel: strings.iconLabel(.hold)),
            title: strings.holdTitle(hold.action), operationDescription: operationDescription, message: message,
            detail: detail, tone: .warning,
            countdown: countdown, buttons: [close],
            announcement: VerificationAnnouncement(
                strings.announcement(message, strings.announcement(detail, countdown.until))))
    }

    /// The emailed code's page (issue 30 §3): before a send, "发送验证码" / "Send Code"; after it, the code entry
    /// with "重新发送" / "Resend Code", disabled (with the seconds left) until `session.emailCodeResendAt`.
    func emailCode(_ session: Session, notice: Notice?, busy: Bool, now: Date?) -> VerificationScreen {
        let (noticeMessage, noticeDetail) = notice.map { lines(for: $0, on: .emailCode) } ?? (nil, nil)
        var buttons: [VerificationButton] = []
        var field: VerificationInputField?
        let prompt: String
        if let resendAt = session.emailCodeResendAt {
            prompt = strings.emailCodeSentPrompt
            field = VerificationInputField(
                kind: .oneTimeCode(length: VerificationFlow.codeLength), label: strings.oneTimeCodeLabel,
                placeholder: strings.oneTimeCodePlaceholder, accessibilityHint: strings.emailCodeHint,
                isSecure: false, isEnabled: !busy)
            buttons.append(
                button(.submit, strings.submit, hint: strings.submitHint(.emailCode), role: .primary, enabled: !busy))
            let wait = now.map { Int(resendAt.timeIntervalSince($0).rounded(.up)) } ?? 0
            var resend = button(
                .sendCode, strings.resendCode, hint: strings.sendCodeHint, role: .secondary, enabled: !busy && wait <= 0
            )
            if wait > 0 {
                resend.title = strings.resendCode(in: wait)
                resend.accessibilityLabel = strings.resendCodeLabel(in: wait)
            }
            buttons.append(resend)
        } else {
            prompt = strings.emailCodeSendPrompt
            buttons.append(
                button(.sendCode, strings.sendCode, hint: strings.sendCodeHint, role: .primary, enabled: !busy))
        }
        buttons += waysOut(of: .emailCode, session, notice: notice, busy: busy)
        let message = busy ? strings.verifying : (noticeMessage ?? prompt)
        return screen(
            .emailCode, icon: busy ? .progress : .email, title: strings.emailCodeTitle, message: message,
            detail: busy ? nil : noticeDetail, tone: notice == nil || busy ? .regular : .warning, input: field,
            buttons: buttons, isBusy: busy)
    }

    /// The page between two factors (issue 30 §3): which passed and how many are left, the policy's reason,
    /// "继续" / "Continue" and "取消" / "Cancel".
    func factorPassed(_ session: Session, _ progress: VerificationProgress, sensor: BiometryKind)
        -> VerificationScreen
    {
        screen(
            .factorPassed, icon: .factorPassed, title: strings.verificationTitle,
            message: strings.factorPassed(progress.passed, remaining: progress.remainingFactors, sensor: sensor),
            detail: session.reason,
            buttons: [button(.continue, strings.continue, hint: strings.nextFactorHint, role: .primary), cancel()])
    }

    /// The limit page (issue 30 §3): what is limited (the title), why, the limit and what is left; only
    /// "关闭" / "Close".
    func policyLimit(_ limit: VerificationPolicyLimit, action: String) -> VerificationScreen {
        let close = button(.cancel, strings.close, hint: strings.closeHint, role: .cancel)
        let message = strings.policyLimitMessage
        let detail = strings.policyLimitDetail(limit)
        return VerificationScreen(
            kind: .policyLimit, icon: VerificationIcon(symbol: .limit, accessibilityLabel: strings.iconLabel(.limit)),
            title: strings.policyLimitTitle(action), operationDescription: operationDescription, message: message,
            detail: detail, tone: .warning, buttons: [close],
            announcement: VerificationAnnouncement(strings.announcement(message, detail)))
    }

    /// The locked new value's page (issue 30 §3) at `now`: what is locked (the title), why, until when and the
    /// time left; only "关闭" / "Close". The announcement leaves out the seconds, as on the hold page.
    func newValueLocked(_ lock: VerificationNewValueLock, action: String, now: Date) -> VerificationScreen {
        let seconds = ScreenCountdown(endsAt: lock.lockedUntil).secondsLeft(at: now)
        let countdown = VerificationCountdown(
            endsAt: lock.lockedUntil, until: strings.holdUntil(lock.lockedUntil, in: timeZone),
            remaining: strings.holdRemaining(seconds: seconds),
            accessibilityLabel: strings.holdRemainingLabel(seconds: seconds))
        let message = strings.newValueLockedMessage(lock.parameter)
        let close = button(.cancel, strings.close, hint: strings.closeHint, role: .cancel)
        return VerificationScreen(
            kind: .newValueLocked,
            icon: VerificationIcon(symbol: .hold, accessibilityLabel: strings.iconLabel(.hold)),
            title: strings.newValueLockedTitle(lock.parameter), operationDescription: operationDescription,
            message: message, tone: .warning, countdown: countdown, buttons: [close],
            announcement: VerificationAnnouncement(strings.announcement(message, countdown.until)))
    }

    /// What the passkey page is busy with, if anything.
    enum PasskeyActivity {
        /// The system sheet is up.
        case sheet
        /// The assertion is with the server.
        case checking
    }

    /// The passkey page (issue 13): busy while the system sheet is up or the server checks the
    /// assertion; else waiting for "使用通行密钥验证", with why, and the other methods.
    func passkey(_ session: Session, notice: VerificationFlow.PasskeyNotice?, busy: PasskeyActivity?)
        -> VerificationScreen
    {
        switch busy {
        case .sheet?:
            return screen(
                .passkey, icon: .passkey, title: strings.passkeyTitle, message: strings.passkeyPrompt,
                buttons: [cancel()], isBusy: true)
        case .checking?:
            return screen(
                .passkey, icon: .progress, title: strings.passkeyTitle, message: strings.verifying, buttons: [cancel()],
                isBusy: true)
        case nil:
            break
        }
        let message: String
        var detail: String?
        switch notice {
        case nil: message = strings.passkeyMessage
        case .cancelled?: message = strings.passkeyCancelled
        case .failed?: message = strings.passkeyFailed
        case .rejected(let remaining)?:
            message = strings.passkeyRejected
            detail = remaining.map(strings.attemptsRemaining)
        case .network?: message = strings.networkFailure
        case .serverError?: message = strings.serverFailure
        }
        var buttons = [button(.usePasskey, strings.usePasskey, hint: strings.usePasskeyHint, role: .primary)]
        if session.offersFundPassword {
            buttons.append(
                button(
                    .usePassword, strings.usePassword, hint: strings.usePasswordInsteadOfPasskeyHint, role: .secondary))
        }
        if let other = session.otherTargetFromBiometrics {
            buttons.append(
                button(.otherMethod, strings.otherMethod, hint: strings.otherMethodHint(other.method), role: .secondary)
            )
        }
        buttons.append(cancel())
        let tone: VerificationScreen.Tone = notice == nil || notice == .cancelled ? .regular : .warning
        return screen(
            .passkey, icon: .passkey, title: strings.passkeyTitle, message: message, detail: detail, tone: tone,
            buttons: buttons)
    }

    // MARK: Parts

    /// "使用密码验证" / "Use Password" (when a fund password exists) and "使用其他方式验证" / "Use Another Method" (A5:
    /// always, when any
    /// other method exists) on biometric pages.
    private func switches(_ session: Session, sensor: BiometryKind) -> [VerificationButton] {
        var buttons: [VerificationButton] = []
        if session.offersFundPassword {
            buttons.append(
                button(.usePassword, strings.usePassword, hint: strings.usePasswordHint(sensor), role: .secondary))
        }
        if let other = session.otherTargetFromBiometrics {
            buttons.append(
                button(.otherMethod, strings.otherMethod, hint: strings.otherMethodHint(other.method), role: .secondary)
            )
        }
        return buttons
    }

    /// What can bring biometrics back once the password page replaced them: the device passcode after a
    /// lockout (B2 −8), Settings for −5, −6 and −7.
    /// The buttons of a code page below its own: another code method, the passkey, biometrics, their
    /// repairs, and "取消" / "Cancel".
    private func waysOut(of method: VerificationFlow.SecretMethod, _ session: Session, notice: Notice?, busy: Bool)
        -> [VerificationButton]
    {
        var buttons: [VerificationButton] = []
        if let other = session.otherSecret(than: method) {
            buttons.append(
                button(
                    .otherMethod, strings.otherMethod, hint: strings.otherMethodHint(other.method), role: .secondary,
                    enabled: !busy))
        }
        if session.passkey != nil {
            buttons.append(
                button(.usePasskey, strings.usePasskey, hint: strings.usePasskeyHint, role: .secondary, enabled: !busy))
        }
        if let route = session.biometrics.route {
            buttons.append(
                button(
                    .useBiometrics, strings.useBiometrics(route.sensor), hint: strings.useBiometricsHint(route.sensor),
                    role: .secondary, enabled: !busy))
        }
        buttons += biometricRepairs(session, notice: notice, enabled: !busy)
        buttons.append(cancel())
        return buttons
    }

    private func biometricRepairs(_ session: Session, notice: Notice?, enabled: Bool) -> [VerificationButton] {
        var buttons: [VerificationButton] = []
        if let locked = session.biometrics.lockedRoute {
            let sensor = locked.sensor
            buttons.append(
                button(
                    .unlockWithPasscode, strings.unlockWithPasscode(sensor),
                    hint: strings.unlockWithPasscodeHint(sensor),
                    role: .secondary, enabled: enabled))
        }
        if let notice, notice.offersSettings, case .biometricsUnavailable(let reason, let sensor) = notice {
            buttons.append(
                button(
                    .openSettings, strings.openSettings, hint: strings.openSettingsHint(for: reason, sensor: sensor),
                    role: .secondary, enabled: enabled))
        }
        return buttons
    }

    /// The lines of `notice` on the page of `method` (`nil`: the empty page, going nowhere).
    private func lines(for notice: Notice, on method: VerificationFlow.SecretMethod?) -> (
        message: String, detail: String?
    ) {
        switch notice {
        case .tooManyBiometricFailures(let sensor):
            return (strings.tooManyFailures(sensor, then: method?.method), nil)
        case .biometricsUnavailable(let reason, let sensor):
            return (strings.biometricsUnavailable(reason, sensor: sensor, then: method?.method), nil)
        case .wrongAnswer(let remaining):
            let message = method == .fundPassword ? strings.wrongFundPassword : strings.wrongCode
            return (message, remaining.map(strings.attemptsRemaining))
        case .methodLocked(let until):
            return (strings.methodLocked, strings.lockedUntil(strings.clockTime(until, in: timeZone)))
        case .methodRefused(let refusal):
            return (strings.methodRefused(refusal), nil)
        case .network:
            return (strings.networkFailure, nil)
        case .serverError:
            return (strings.serverFailure, nil)
        case .invalidFormat:
            switch method {
            case .fundPassword?: return (strings.invalidFundPasswordFormat, nil)
            case .emailCode?: return (strings.invalidEmailCodeFormat, nil)
            case .totp?, nil: return (strings.invalidCodeFormat, nil)
            }
        }
    }

    private func icon(for sensor: BiometryKind) -> VerificationIcon.Symbol {
        switch sensor {
        case .faceID: .faceID
        case .touchID: .touchID
        case .opticID: .opticID
        }
    }

    private func cancel() -> VerificationButton {
        button(.cancel, strings.cancel, hint: strings.cancelHint, role: .cancel)
    }

    private func button(
        _ id: VerificationButton.ID, _ title: String, hint: String, role: VerificationButton.Role, enabled: Bool = true
    ) -> VerificationButton {
        let shortcut: VerificationButton.KeyboardShortcut?
        switch role {
        case .primary: shortcut = .defaultAction
        case .cancel: shortcut = .cancelAction
        case .secondary: shortcut = nil
        }
        return VerificationButton(
            id: id, title: title, accessibilityLabel: title, accessibilityHint: hint, role: role, isEnabled: enabled,
            keyboardShortcut: shortcut)
    }

    private func screen(
        _ kind: VerificationScreen.Kind, icon symbol: VerificationIcon.Symbol, title: String, message: String,
        detail: String? = nil, tone: VerificationScreen.Tone = .regular, input: VerificationInputField? = nil,
        buttons: [VerificationButton], isBusy: Bool = false
    ) -> VerificationScreen {
        VerificationScreen(
            kind: kind, icon: VerificationIcon(symbol: symbol, accessibilityLabel: strings.iconLabel(symbol)),
            title: title, operationDescription: operationDescription, requirement: requirement, message: message,
            detail: detail, tone: tone,
            input: input, buttons: buttons, isBusy: isBusy,
            announcement: VerificationAnnouncement(strings.announcement(message, detail)))
    }
}
