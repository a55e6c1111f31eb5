import Foundation

/// The page with no method left: only "取消" / "Cancel", and what can bring biometrics back (the device
/// passcode after a lockout, Settings).
extension VerificationFlow {
    /// The verification ran out of time (A8).
    mutating func noMethodLeftPageTimedOut(_ session: Session, _ phase: NoMethodLeftPhase) -> Action {
        switch phase {
        case .waiting:
            // Nothing on the page could expire.
            return .none
        case .unlockingBiometrics:
            return expireTakingDownPrompt(session)
        }
    }

    /// No method to ask for; a passkey of this device is a method too (issue 13).
    mutating func noMethodLeft(_ session: Session, notice: Notice?) -> Action {
        if let route = session.passkey { return enterPasskey(session, route) }
        state = .active(session, .noMethodLeft(notice, .waiting))
        return .show(screens.noMethodAvailable(session, notice: notice))
    }
}
