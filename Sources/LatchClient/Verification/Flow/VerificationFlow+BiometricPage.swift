import Foundation
import LatchCore

/// The biometric page (A1, A3, A6, A8): the Face ID permission, the system prompt, the count of failed
/// attempts and the signed challenge.
extension VerificationFlow {
    // MARK: Events only this page receives

    /// "继续" / "Continue" on the permission explanation (A6): ask the system.
    public mutating func userTappedContinue() -> Action {
        switch state {
        case .active(let session, .biometric(.explainingPermission)):
            state = .active(session, .biometric(.requestingPermission))
            return .requestBiometricPermission
        case .active(let session, .factorPassed(let progress)):
            // Issue 30 §3: on to the methods still open for the next factor.
            return open(session, biometricOffer: progress.methods.first { $0.type == .biometric })
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // A tap on the explanation just replaced (a double tap): nothing to do.
            return .none
        }
    }

    /// The system permission prompt was answered (A6): granted → evaluation at once; denied → the
    /// denial message with "使用密码验证" / "Use Password".
    public mutating func permissionPromptAnswered(granted: Bool) -> Action {
        let permission: VerificationPermission = granted ? .granted : .denied
        switch state {
        case .active(var session, .biometric(.requestingPermission)):
            guard granted else { return deny(session, sensor: session.openBiometrics.route.sensor) }
            let open = session.openBiometrics
            session.biometrics = .open(failures: open.failures, permission: permission, route: open.route)
            return enterBiometrics(session)
        case .starting(let carried):
            // The page timed out while the prompt was up and a new verification is opening: keep the answer.
            state = .starting(carried.with(permission: permission))
            return .none
        case .startFailed(let carried):
            state = .startFailed(carried.with(permission: permission))
            return .none
        case .held(let carried, let hold):
            // The page was held while the prompt was up: keep the answer for after the hold.
            state = .held(carried.with(permission: permission), hold)
            return .none
        case .newValueLocked(let carried, let lock):
            // The page was locked while the prompt was up: keep the answer for after the lock.
            state = .newValueLocked(carried.with(permission: permission), lock)
            return .none
        case .policyLimited:
            // The limit page only closes: the answer is not needed.
            return .none
        case .expired(let carried, let reason):
            // Time ran out while the prompt was up: keep the answer for the next verification.
            state = .expired(carried.with(permission: permission), reason)
            return .none
        case .finished:
            // Cancelled while the prompt was up.
            return .none
        case .initial, .active:
            preconditionFailure(
                "the prompt is only requested on entering requestingPermission, which is left only by its answer, a time-out or cancel"
            )
        }
    }

    /// The system biometric prompt ended.
    public mutating func biometricFinished(_ outcome: BiometricOutcome) -> Action {
        switch state {
        case .active(let session, .biometric(.evaluating)):
            return evaluationFinished(session, outcome)
        case .initial:
            preconditionFailure("no prompt runs before start()")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // A late result of a prompt the flow already left (app switch, time-out, another method,
            // cancel): it means nothing now.
            return .none
        }
    }

    /// The device key could not sign the challenge (e.g. the enrolment changed and the key is gone).
    public mutating func signingFailed() -> Action {
        switch state {
        case .active(let session, .biometric(.submittingSignature)):
            return degrade(session, .unavailable(.notAvailable), sensor: session.openBiometrics.route.sensor)
        case .finished:
            // Cancelled while signing.
            return .none
        case .initial, .starting, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            preconditionFailure(
                "signing only happens for submitBiometricSignature, returned only on entering submittingSignature")
        }
    }

    /// The app went to the background (A8): a running prompt is cancelled and the page waits with
    /// "再试一次" / "Try Again"; the interruption is not counted as a failure.
    public mutating func appDidEnterBackground() -> Action {
        switch state {
        case .active(let session, .biometric(.evaluating)):
            let open = session.openBiometrics
            state = .active(session, .biometric(.awaitingRetry(.interrupted)))
            return .cancelBiometricEvaluation(
                thenShow: screens.biometricRetry(
                    session, sensor: open.route.sensor, reason: .interrupted, failures: open.failures))
        case .initial:
            preconditionFailure("the driver reports lifecycle events only after start()")
        case .active, .starting, .startFailed, .expired, .held, .policyLimited, .newValueLocked, .finished:
            // Nothing runs that leaving the app would cut off; the page waits as it is.
            return .none
        }
    }

    // MARK: Events routed here by VerificationFlow

    /// "再试一次" / "Try Again" after a failed or interrupted attempt.
    mutating func biometricPageTappedRetry(_ session: Session, _ phase: BiometricPhase) -> Action {
        switch phase {
        case .awaitingRetry:
            return enterBiometrics(session)
        case .explainingPermission, .requestingPermission, .permissionDenied, .evaluating, .submittingSignature:
            // A tap on a screen just replaced (a double tap): nothing to do.
            return .none
        }
    }

    /// "使用其他方式验证" / "Use Another Method" (A5): 2FA when bound, else the fund password.
    mutating func biometricPageTappedOtherMethod(_ session: Session, _ phase: BiometricPhase) -> Action {
        guard let target = session.otherTargetFromBiometrics else { return .none }
        return leaveBiometricPage(session, phase, for: target)
    }

    /// "使用密码验证" / "Use Password" (A6, seed §8): the fund password.
    mutating func biometricPageTappedUsePassword(_ session: Session, _ phase: BiometricPhase) -> Action {
        guard session.offersFundPassword else { return .none }
        return leaveBiometricPage(session, phase, for: .fundPassword)
    }

    /// The verification ran out of time (A8).
    mutating func biometricPageTimedOut(_ session: Session, _ phase: BiometricPhase) -> Action {
        switch phase {
        case .explainingPermission, .requestingPermission, .permissionDenied, .awaitingRetry:
            return expire(session.biometrics.carried, .timedOut)
        case .evaluating:
            return expireTakingDownPrompt(session)
        case .submittingSignature:
            // The answer is on its way; the server decides (an expired verification answers "gone").
            return .none
        }
    }

    /// The server refused the signed challenge or could not be reached.
    mutating func biometricPageSignatureFailed(_ session: Session, _ failure: VerificationServerFailure) -> Action {
        let open = session.openBiometrics
        switch failure {
        case .sessionExpired:
            return finish(.failed(.sessionExpired))
        case .securityHold(let hold):
            // A hold started while the page was open (a security change elsewhere).
            return holdPage(session.biometrics.carried, hold)
        case .verificationGone:
            return expire(session.biometrics.carried, .invalidated)
        case .wrongAnswer(let remaining) where remaining == 0:
            // The signature was refused and the verification is used up: a new one, without biometrics.
            return expire(.closed, .attemptsUsedUp)
        case .wrongAnswer, .locked, .methodRefused:
            // The server did not accept this device's signature (A11), or does not count it here (issue 28
            // §2, issue 30 §3): biometrics cannot prove it here.
            return degrade(session, .rejected, sensor: open.route.sensor)
        case .network:
            return awaitRetry(session, .network)
        case .policyLimit(let limit):
            return policyLimitPage(limit)
        case .newValueLocked(let lock):
            return newValueLockPage(session.biometrics.carried, lock)
        case .noVerificationMethod, .rateLimited, .other:
            return awaitRetry(session, .serverError)
        }
    }

    // MARK: Transitions

    /// Biometrics, minding the Face ID permission (A6): explain first on first use, evaluate at
    /// once when granted (A1), the denial page when refused.
    mutating func enterBiometrics(_ session: Session) -> Action {
        let open = session.openBiometrics
        let sensor = open.route.sensor
        switch (sensor.asksAppPermission, open.permission) {
        case (false, _), (true, .granted):
            state = .active(session, .biometric(.evaluating))
            let fallbackTitle =
                session.offersFundPassword
                ? strings.usePassword : (session.otherTargetFromBiometrics == nil ? "" : strings.otherMethod)
            let prompt = VerificationBiometricPrompt(
                sensor: sensor, localizedReason: context.localizedReason ?? strings.biometricMessage(for: sensor),
                fallbackTitle: fallbackTitle, cancelTitle: strings.cancel)
            return .evaluateBiometrics(prompt, screen: screens.biometric(session, sensor: sensor))
        case (true, .notDetermined):
            state = .active(session, .biometric(.explainingPermission))
            return .show(screens.permissionExplanation(session, sensor: sensor))
        case (true, .denied):
            return deny(session, sensor: sensor)
        }
    }

    /// What the prompt's answer means on the page (A3, A4, A7, A8, B2).
    private mutating func evaluationFinished(_ session: Session, _ outcome: BiometricOutcome) -> Action {
        var session = session
        let open = session.openBiometrics
        let sensor = open.route.sensor
        switch outcome {
        case .success:
            state = .active(session, .biometric(.submittingSignature))
            let request = VerificationSignatureRequest(
                verificationID: session.verificationID, credentialID: open.route.credentialID,
                challengeID: open.route.challengeID, challenge: open.route.challenge, context: context)
            return .submitBiometricSignature(request, screen: screens.biometricChecking(sensor: sensor))
        case .failed, .failedThenCancelled:
            // Touch ID's −1, or a Cancel after a failed scan (how Face ID attempts end): one attempt.
            let count = open.failures + 1
            guard count < Self.maximumBiometricFailures else {
                // A3: the third failure switches to the password by itself.
                return tooManyFailures(session, sensor: sensor)
            }
            session.biometrics = .open(failures: count, permission: open.permission, route: open.route)
            return awaitRetry(session, .failed)
        case .userCancel:
            // A4: the prompt's "取消" / "Cancel" is the page's cancel.
            return finish(.cancelled)
        case .systemCancel, .appCancel, .notInteractive:
            // A8: an interruption (or a prompt that could not appear while the app was not active)
            // is not a failure; the same attempt can be tried again.
            return awaitRetry(session, .interrupted)
        case .unexpected:
            // −10 or an unknown code: not the user's failure, not counted; a new prompt may work.
            return awaitRetry(session, .unexpected)
        case .userFallback:
            guard let target = session.passwordTarget else {
                // The fallback button is hidden when nothing is left to fall back to; if it came
                // anyway, the biometric page stays.
                return awaitRetry(session, .interrupted)
            }
            return enterSecret(session, target, notice: nil)
        case .failedThenLockedOut:
            // The fifth consecutive failure, in this prompt: too many failed attempts (A3).
            return tooManyFailures(session, sensor: sensor)
        case .lockout:
            guard open.failures == 0 else {
                // Locked right after a counted failure on this page: too many failed attempts (A3).
                return tooManyFailures(session, sensor: sensor)
            }
            // Locked before this page (failures elsewhere): the password, and the passcode to unlock.
            session.biometrics = .locked(route: open.route, permission: open.permission)
            return degrade(session, .unavailable(.lockedOut), sensor: sensor)
        case .notAvailable:
            return degrade(session, .unavailable(.notAvailable), sensor: sensor)
        case .passcodeNotSet:
            return degrade(session, .unavailable(.passcodeNotSet), sensor: sensor)
        case .notEnrolled:
            return degrade(session, .unavailable(.notEnrolled), sensor: sensor)
        case .permissionDenied:
            guard sensor.asksAppPermission else {
                // Touch ID has no app permission; treat it as unavailable.
                return degrade(session, .unavailable(.notAvailable), sensor: sensor)
            }
            return deny(session, sensor: sensor)
        }
    }

    /// The page waits with "再试一次" / "Try Again", saying why.
    private mutating func awaitRetry(_ session: Session, _ reason: RetryReason) -> Action {
        let open = session.openBiometrics
        state = .active(session, .biometric(.awaitingRetry(reason)))
        return .show(
            screens.biometricRetry(session, sensor: open.route.sensor, reason: reason, failures: open.failures))
    }

    /// To a code page from the biometric page, taking down the system prompt if it is up.
    private mutating func leaveBiometricPage(
        _ session: Session, _ phase: BiometricPhase, for target: SecretMethod
    ) -> Action {
        switch phase {
        case .explainingPermission, .permissionDenied, .awaitingRetry:
            return enterSecret(session, target, notice: nil)
        case .evaluating:
            state = .active(session, .secret(target, .entering(nil)))
            return .cancelBiometricEvaluation(thenShow: screens.secret(session, target, notice: nil, busy: false))
        case .requestingPermission, .submittingSignature:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    /// A3: too many failed attempts; biometrics are set aside and the password page says so.
    private mutating func tooManyFailures(_ session: Session, sensor: BiometryKind) -> Action {
        var session = session
        session.biometrics.setAside()
        return enterPassword(session, notice: .tooManyBiometricFailures(sensor))
    }

    /// The Face ID (or Optic ID) permission is off (A6).
    private mutating func deny(_ session: Session, sensor: BiometryKind) -> Action {
        var session = session
        session.biometrics.setAside()
        state = .active(session, .biometric(.permissionDenied))
        return .show(screens.permissionDenied(session, sensor: sensor))
    }
}
