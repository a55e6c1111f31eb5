import Foundation

/// The device-passcode prompt (B2 −8) over a code page or the page with no method left, after a lockout:
/// entered, biometrics come back with a fresh count of three; not entered, the page is shown as it was.
extension VerificationFlow {
    /// "输入设备密码解锁Face ID" / "Unlock Face ID with Passcode" on the password page (or the page with no method
    /// left) after a lockout (B2 −8): ask for the device passcode, which unlocks biometry again.
    public mutating func userTappedUnlockWithPasscode() -> Action {
        switch state {
        case .active(let session, .secret(let method, .entering(let notice))):
            guard let route = session.biometrics.lockedRoute else { return .none } // only a lockout shows the button
            state = .active(session, .secret(method, .unlockingBiometrics(notice)))
            return .unlockBiometricsWithPasscode(passcodePrompt(route))
        case .active(let session, .noMethodLeft(let notice, .waiting)):
            guard let route = session.biometrics.lockedRoute else { return .none } // only a lockout shows the button
            state = .active(session, .noMethodLeft(notice, .unlockingBiometrics))
            return .unlockBiometricsWithPasscode(passcodePrompt(route))
        case .active(_, .secret), .active(_, .noMethodLeft), .active(_, .biometric), .active(_, .passkey),
            .active(_, .factorPassed), .starting, .startFailed, .expired, .finished, .held, .policyLimited,
            .newValueLocked:
            // The button is not on this screen: a tap on a screen just replaced (or a double tap).
            return .none
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        }
    }

    /// The device-passcode prompt ended: entered → biometry is unlocked and evaluated again at once
    /// (a fresh count of three); not entered → the page it was asked from, as it was.
    public mutating func passcodeUnlockFinished(unlocked: Bool) -> Action {
        switch state {
        case .active(let session, .secret(let method, .unlockingBiometrics(let notice))):
            guard unlocked, case .locked(let route, let permission) = session.biometrics else {
                return enterSecret(session, method, notice: notice)
            }
            return unlockBiometrics(session, route, permission)
        case .active(let session, .noMethodLeft(let notice, .unlockingBiometrics)):
            guard unlocked, case .locked(let route, let permission) = session.biometrics else {
                return noMethodLeft(session, notice: notice)
            }
            return unlockBiometrics(session, route, permission)
        case .active(_, .secret), .active(_, .noMethodLeft), .active(_, .biometric), .active(_, .passkey),
            .active(_, .factorPassed), .starting, .startFailed, .expired, .finished, .held, .policyLimited,
            .newValueLocked:
            // A late answer of a prompt the page already left (time-out, cancel): it means nothing now.
            return .none
        case .initial:
            preconditionFailure("no prompt runs before start()")
        }
    }

    // MARK: Transitions

    /// The device passcode ended the lockout (B2): biometrics come back with a fresh count of three.
    private mutating func unlockBiometrics(
        _ session: Session, _ route: BiometricRoute, _ permission: VerificationPermission
    ) -> Action {
        var session = session
        session.biometrics = .open(failures: 0, permission: permission, route: route)
        return enterBiometrics(session)
    }

    private func passcodePrompt(_ route: BiometricRoute) -> VerificationPasscodePrompt {
        VerificationPasscodePrompt(
            sensor: route.sensor, localizedReason: strings.passcodeReason(route.sensor), cancelTitle: strings.cancel)
    }
}
