import Foundation
import LatchCore

/// The passkey page (issue 13): the system sheet over the options bound to this verification, and the
/// assertion with the server.
extension VerificationFlow {
    // MARK: Events only this page receives

    /// The device's passkey answered (or did not): an assertion goes to the server; a closed sheet or a
    /// failure leaves the passkey page waiting, with the other methods offered.
    public mutating func passkeyAssertionFinished(_ outcome: PasskeyAssertionOutcome) -> Action {
        switch state {
        case .active(let session, .passkey(.asserting)):
            switch outcome {
            case .asserted(let credential):
                state = .active(session, .passkey(.submitting))
                return .submitPasskeyAssertion(
                    verificationID: session.verificationID, credential: credential,
                    screen: screens.passkey(session, notice: nil, busy: .checking))
            case .cancelled:
                return waitForPasskey(session, .cancelled)
            case .failed:
                return waitForPasskey(session, .failed)
            }
        case .initial:
            preconditionFailure("no sheet is shown before start()")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // A late answer of a sheet the page already left (time-out, cancel): it means nothing now.
            return .none
        }
    }

    // MARK: Events routed here by VerificationFlow

    /// "使用通行密钥验证": the system sheet again.
    mutating func passkeyPageTappedUsePasskey(_ session: Session, _ phase: PasskeyPhase) -> Action {
        switch phase {
        case .waiting:
            guard let route = session.passkey else {
                // The passkey page is entered only through enterPasskey, which needs the route, and a
                // session's passkey route never changes.
                preconditionFailure("the passkey page is only shown for a session with a passkey route")
            }
            return enterPasskey(session, route)
        case .asserting, .submitting:
            // The button is not on this screen (or a double tap).
            return .none
        }
    }

    /// "使用其他方式验证" / "Use Another Method": 2FA when bound, else the fund password.
    mutating func passkeyPageTappedOtherMethod(_ session: Session, _ phase: PasskeyPhase) -> Action {
        switch phase {
        case .waiting:
            guard let target = session.otherTargetFromBiometrics else { return .none }
            return enterSecret(session, target, notice: nil)
        case .asserting, .submitting:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    /// "使用密码验证" / "Use Password": the fund password.
    mutating func passkeyPageTappedUsePassword(_ session: Session, _ phase: PasskeyPhase) -> Action {
        switch phase {
        case .waiting:
            guard session.offersFundPassword else { return .none }
            return enterSecret(session, .fundPassword, notice: nil)
        case .asserting, .submitting:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    /// The verification ran out of time (A8).
    mutating func passkeyPageTimedOut(_ session: Session, _ phase: PasskeyPhase) -> Action {
        switch phase {
        case .waiting, .asserting:
            // A sheet still up finishes later; its result is dropped (passkeyAssertionFinished).
            return expire(session.biometrics.carried, .timedOut)
        case .submitting:
            // The answer is on its way; the server decides (an expired verification answers "gone").
            return .none
        }
    }

    /// The server refused the assertion or could not be reached.
    mutating func passkeyPageAttemptFailed(_ session: Session, _ failure: VerificationServerFailure) -> Action {
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
            return waitForPasskey(session, .rejected(attemptsRemaining: remaining))
        case .locked, .methodRefused:
            return waitForPasskey(session, .rejected(attemptsRemaining: nil))
        case .network:
            return waitForPasskey(session, .network)
        case .policyLimit(let limit):
            return policyLimitPage(limit)
        case .newValueLocked(let lock):
            return newValueLockPage(session.biometrics.carried, lock)
        case .noVerificationMethod, .rateLimited, .other:
            return waitForPasskey(session, .serverError)
        }
    }

    // MARK: Transitions

    /// Passkey (issue 13): the system sheet at once, over the options bound to this verification.
    mutating func enterPasskey(_ session: Session, _ route: PasskeyRoute) -> Action {
        state = .active(session, .passkey(.asserting))
        return .getPasskeyAssertion(route.options, screen: screens.passkey(session, notice: nil, busy: .sheet))
    }

    private mutating func waitForPasskey(_ session: Session, _ notice: PasskeyNotice) -> Action {
        state = .active(session, .passkey(.waiting(notice)))
        return .show(screens.passkey(session, notice: notice, busy: nil))
    }
}
