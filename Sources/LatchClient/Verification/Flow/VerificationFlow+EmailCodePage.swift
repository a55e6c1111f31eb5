import Foundation
import LatchCore

/// The emailed code's page (issue 30 §3): "发送验证码" / "Send Code" mails a code for this verification, then
/// the code is entered like a 2FA code (a wrong one counts as on the other code pages); "重新发送" /
/// "Resend Code" waits for the server's budget (60 s after a send, or its `retry_after`).
extension VerificationFlow {
    /// Seconds before an emailed code may be asked for again (the server's budget).
    public static let emailCodeResendInterval = 60

    // MARK: Events only this page receives

    /// "发送验证码" / "Send Code", or "重新发送" / "Resend Code" once the wait is over.
    public mutating func userTappedSendCode() -> Action {
        switch state {
        case .active(let session, .secret(.emailCode, .entering)):
            if let resendAt = session.emailCodeResendAt, clock() < resendAt {
                // The button is disabled while the budget's wait runs: a tap on a screen just replaced.
                return .none
            }
            state = .active(session, .secret(.emailCode, .sendingEmailCode))
            return .sendEmailCode(
                verificationID: session.verificationID,
                screen: screens.secret(session, .emailCode, notice: nil, busy: true))
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // The button is not on this screen: a tap on a screen just replaced (or a double tap).
            return .none
        }
    }

    /// The server mailed the code: the code entry, "重新发送" / "Resend Code" after the wait.
    public mutating func emailCodeSent() -> Action {
        switch state {
        case .active(var session, .secret(.emailCode, .sendingEmailCode)):
            session.emailCodeResendAt = clock().addingTimeInterval(TimeInterval(Self.emailCodeResendInterval))
            return enterSecret(session, .emailCode, notice: nil)
        case .finished:
            // Cancelled while the mail was being sent.
            return .none
        case .initial, .starting, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            preconditionFailure(
                "sendEmailCode is returned only on entering sendingEmailCode, which only its answer leaves")
        }
    }

    /// The server did not mail the code. Too soon (RATE_LIMITED with `retry_after`): a code is already on its
    /// way, so the code entry, "重新发送" / "Resend Code" after the server's wait.
    public mutating func emailCodeSendFailed(_ failure: VerificationServerFailure) -> Action {
        switch state {
        case .active(var session, .secret(.emailCode, .sendingEmailCode)):
            if case .rateLimited(let seconds) = failure {
                session.emailCodeResendAt = clock().addingTimeInterval(TimeInterval(seconds))
                return enterSecret(session, .emailCode, notice: nil)
            }
            return secretPageAttemptFailed(session, .emailCode, failure)
        case .finished:
            // Cancelled while the mail was being sent.
            return .none
        case .initial, .starting, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            preconditionFailure(
                "sendEmailCode is returned only on entering sendingEmailCode, which only its answer leaves")
        }
    }

    /// A second of the wait after a send passed: the page again, with the seconds left on "N秒后可重新发送" /
    /// "Resend in N s", or "重新发送" / "Resend Code" enabled once the wait is over.
    public mutating func emailCodeResendAvailable() -> Action {
        switch state {
        case .active(let session, .secret(.emailCode, .entering(let notice))):
            return enterSecret(session, .emailCode, notice: notice)
        case .initial:
            preconditionFailure("the wait starts only on the emailed code's page, which needs start()")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // The page moved on while the wait ran: nothing to do.
            return .none
        }
    }
}
