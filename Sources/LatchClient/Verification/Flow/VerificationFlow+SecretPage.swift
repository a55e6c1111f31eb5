import Foundation
import LatchCore

/// The code pages (A3, A5, A7): the 2FA code (or a recovery code) and the fund password.
extension VerificationFlow {
    // MARK: Events only this page receives

    /// The user sent the 2FA code (or a recovery code) typed on the code page.
    public mutating func userSubmittedCode(_ text: String) -> Action {
        switch state {
        case .active(let session, .secret(.totp, .entering)):
            guard let code = Self.acceptedCode(text) else {
                return enterSecret(session, .totp, notice: .invalidFormat)
            }
            state = .active(session, .secret(.totp, .submitting))
            return .submitCode(
                verificationID: session.verificationID, code: VerificationSecret(code),
                screen: screens.secret(session, .totp, notice: nil, busy: true))
        case .active(let session, .secret(.emailCode, .entering)) where session.emailCodeResendAt != nil:
            // Issue 30 §3: the emailed code, once one was sent.
            guard let code = Self.acceptedEmailCode(text) else {
                return enterSecret(session, .emailCode, notice: .invalidFormat)
            }
            state = .active(session, .secret(.emailCode, .submitting))
            return .submitEmailCode(
                verificationID: session.verificationID, code: VerificationSecret(code),
                screen: screens.secret(session, .emailCode, notice: nil, busy: true))
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be typed")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // Sent from a code field no longer on screen (or twice): nothing to do.
            return .none
        }
    }

    /// The user sent the fund password typed on the fund-password page.
    public mutating func userSubmittedFundPassword(_ text: String) -> Action {
        switch state {
        case .active(let session, .secret(.fundPassword, .entering)):
            guard let password = Self.acceptedFundPassword(text) else {
                return enterSecret(session, .fundPassword, notice: .invalidFormat)
            }
            state = .active(session, .secret(.fundPassword, .submitting))
            return .submitFundPassword(
                verificationID: session.verificationID, password: VerificationSecret(password),
                screen: screens.secret(session, .fundPassword, notice: nil, busy: true))
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be typed")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // Sent from a field no longer on screen (or twice): nothing to do.
            return .none
        }
    }

    /// "使用Face ID验证" / "Use Face ID" on a code page: back to biometrics while they stand open.
    public mutating func userTappedUseBiometrics() -> Action {
        switch state {
        case .active(let session, .secret(_, .entering)):
            guard session.biometrics.route != nil else { return .none }
            return enterBiometrics(session)
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    // MARK: Events routed here by VerificationFlow

    /// "使用其他方式验证" / "Use Another Method" (A5): the other code method.
    mutating func secretPageTappedOtherMethod(_ session: Session, _ method: SecretMethod, _ phase: SecretPhase)
        -> Action
    {
        switch phase {
        case .entering:
            guard let other = session.otherSecret(than: method) else { return .none }
            return enterSecret(session, other, notice: nil)
        case .submitting, .sendingEmailCode, .unlockingBiometrics:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    /// The verification ran out of time (A8).
    mutating func secretPageTimedOut(_ session: Session, _ phase: SecretPhase) -> Action {
        switch phase {
        case .entering:
            return expire(session.biometrics.carried, .timedOut)
        case .unlockingBiometrics:
            return expireTakingDownPrompt(session)
        case .submitting, .sendingEmailCode:
            // The answer is on its way; the server decides (an expired verification answers "gone").
            return .none
        }
    }

    /// The server refused the code or fund password, or could not be reached.
    mutating func secretPageAttemptFailed(
        _ session: Session, _ method: SecretMethod, _ failure: VerificationServerFailure
    ) -> Action {
        switch failure {
        case .sessionExpired:
            return finish(.failed(.sessionExpired))
        case .securityHold(let hold):
            // A hold started while the page was open (a security change elsewhere).
            return holdPage(session.biometrics.carried, hold)
        case .verificationGone:
            return expire(session.biometrics.carried, .invalidated)
        case .wrongAnswer(let remaining):
            guard remaining != 0 else { return expire(session.biometrics.carried, .attemptsUsedUp) }
            return enterSecret(session, method, notice: .wrongAnswer(attemptsRemaining: remaining))
        case .locked(let until):
            return enterSecret(session, method, notice: .methodLocked(until: until))
        case .network:
            return enterSecret(session, method, notice: .network)
        case .policyLimit(let limit):
            // The limit was reached by another action meanwhile (issue 30 §3).
            return policyLimitPage(limit)
        case .newValueLocked(let lock):
            return newValueLockPage(session.biometrics.carried, lock)
        case .methodRefused(let refusal):
            return enterSecret(session, method, notice: .methodRefused(refusal))
        case .noVerificationMethod, .rateLimited, .other:
            return enterSecret(session, method, notice: .serverError)
        }
    }

    // MARK: Transitions

    /// Password verification (A3, A7): the fund password, else 2FA, else nothing left.
    mutating func enterPassword(_ session: Session, notice: Notice?) -> Action {
        guard let target = session.passwordTarget else { return noMethodLeft(session, notice: notice) }
        return enterSecret(session, target, notice: notice)
    }

    mutating func enterSecret(_ session: Session, _ method: SecretMethod, notice: Notice?) -> Action {
        state = .active(session, .secret(method, .entering(notice)))
        let now = clock()
        let screen = screens.secret(session, method, notice: notice, busy: false, now: now)
        if method == .emailCode, let resendAt = session.emailCodeResendAt, resendAt > now {
            // Issue 30 §3: "重新发送" / "Resend Code" waits for the server's budget.
            return .showAwaitingResend(screen, seconds: Int(resendAt.timeIntervalSince(now).rounded(.up)))
        }
        return .show(screen)
    }

    // MARK: Input checks

    /// A 2FA code (6 digits) or a recovery code, without spaces; `nil` when it can be neither.
    static func acceptedCode(_ text: String) -> String? {
        let compact = text.filter { !$0.isWhitespace }
        if compact.count == codeLength, compact.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return compact
        }
        let recovery = RecoveryCode.normalize(compact)
        if recovery.count == RecoveryCode.length, recovery.allSatisfy({ RecoveryCode.alphabet.contains($0) }) {
            return compact
        }
        return nil
    }

    /// An emailed code: exactly 6 ASCII digits, without spaces; `nil` otherwise.
    static func acceptedEmailCode(_ text: String) -> String? {
        let compact = text.filter { !$0.isWhitespace }
        guard compact.count == codeLength, compact.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return compact
    }

    /// A fund password: exactly 6 ASCII digits (surrounding spaces dropped); `nil` otherwise.
    static func acceptedFundPassword(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count == codeLength, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return trimmed
    }
}
