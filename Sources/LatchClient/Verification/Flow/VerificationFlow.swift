import Foundation
import LatchCore

/// The verification page (seed CW-023, SPEC A1–A10) as a pure state machine.
///
/// Verification is alternative mode: Face ID / Touch ID, 2FA or the fund password, any ONE
/// passes. The flow opens a server verification, starts biometrics at once when they are enabled
/// and usable (A1), counts failures to three with the seed's exact messages (A3), explains and
/// handles the Face ID permission (A6), degrades to the password when biometrics cannot be used
/// (A7), survives interruptions and time-outs (A8), and finishes with the verification token and
/// the untouched action context (A2), or cancelled with no token (A4). Under the server's policy (issue 30 §3)
/// a passed factor may be followed by the page between the factors and a second one of another kind; a
/// policy limit or a locked new value replaces the methods with a page of its own.
///
/// The machine is hierarchical: a few outer states (starting, failed to start, active, expired, held,
/// limited by the policy, new value locked, finished), and inside `active` one open verification with the
/// method page on screen (biometric, code, passkey, none left, a factor passed). Each page's transitions live in a file of their own; this one holds the
/// outer states and routes each event to the page.
///
/// It performs nothing itself: every event returns the one `Action` the driver must run. Events
/// the flow cannot receive in a state stop the program (`preconditionFailure`, with the reason);
/// events a race can deliver late (a prompt result after the page moved on, a tap on a screen
/// just replaced) return `.none`.
///
///     var flow = VerificationFlow(context: context, device: device, language: .zhHans)
///     run(flow.start())                         // .startServerVerification
///     run(flow.serverStarted(started))          // .evaluateBiometrics (A1)
///     run(flow.biometricFinished(.failed))      // .show: "第1/3次尝试失败" / "Attempt 1 of 3 failed.", "剩余2次尝试机会" / "2 attempts left."
public struct VerificationFlow: Sendable {
    /// Failed biometric attempts before the flow switches to the password (A3).
    public static let maximumBiometricFailures = 3
    /// Digits of a 2FA code and of the fund password.
    public static let codeLength = 6
    /// Seconds a biometric challenge lives on the server (contract: challenges live 120 s).
    public static let challengeLifetime = 120
    /// Seconds the driver's timer leaves for the network before the server's limit.
    public static let timeoutMargin = 5

    /// Set only by this file and the page files (`VerificationFlow+…Page.swift`).
    var state: State = .initial
    /// The action being protected, handed back unchanged on success (A2, A8).
    let context: VerificationContext
    let device: VerificationDeviceState
    let strings: VerificationStrings
    /// Set by `serverStarted(_:)` with the policy's requirement line (issue 30 §3); otherwise fixed.
    var screens: VerificationScreens
    /// The current time, for the hold and lock pages' countdowns and the emailed code's resend wait
    /// (injected: tests decide it).
    let clock: @Sendable () -> Date

    /// A flow for `context` on a device in `device`'s state, speaking `language`; lock and hold times are
    /// shown in `timeZone`, and the hold page counts down by `clock`.
    public init(
        context: VerificationContext, device: VerificationDeviceState, language: LatchLanguage,
        timeZone: TimeZone = .current, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.context = context
        self.device = device
        self.clock = clock
        self.strings = VerificationStrings(language)
        self.screens = VerificationScreens(
            strings: VerificationStrings(language), timeZone: timeZone, operationDescription: context.localizedReason)
    }

    /// Seconds the driver lets `started` run before reporting `timedOut(verificationID:)`: the
    /// server's `expires_in`, capped at the biometric challenge's lifetime when one is offered,
    /// less `timeoutMargin` (A8).
    public static func timeout(for started: VerificationStarted) -> Int {
        let offersChallenge = started.methods.contains { $0.type == .biometric }
        let limit = offersChallenge ? min(started.expiresIn, challengeLifetime) : started.expiresIn
        return max(1, limit - timeoutMargin)
    }

    // MARK: Events of the outer states

    /// The page opens for a sensitive action (A1): open a verification on the server.
    public mutating func start() -> Action {
        switch state {
        case .initial:
            let carried: CarriedBiometrics
            switch device.biometry {
            case .available(_, let permission):
                carried = .open(failures: 0, permission: permission)
            case .notSupported, .notEnrolled, .notAvailable, .lockedOut:
                // Biometrics are set aside when the server's offer arrives, with the reason (A7).
                carried = .open(failures: 0, permission: .granted)
            }
            state = .starting(carried)
            return .startServerVerification(context.request, screen: screens.preparing())
        case .starting, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked, .finished:
            preconditionFailure("start() is called once, by the driver, before any other event")
        }
    }

    /// The server opened the verification and offers its methods. `devicePasskey` says whether this
    /// device has a passkey that can answer the server's passkey offer (the driver asks the
    /// authenticator with the offer's options); passkey is offered on the page only then.
    public mutating func serverStarted(_ started: VerificationStarted, devicePasskey: Bool = false) -> Action {
        switch state {
        case .starting(let carried):
            let offer = started.methods.first { $0.type == .biometric }
            var session = Session(started: started, biometrics: carried)
            screens.requirement = strings.requirement(factors: started.requiredFactors, reason: session.reason)
            if devicePasskey, let passkey = started.methods.first(where: { $0.type == .passkey }),
                let challengeID = passkey.challengeId, let options = passkey.options
            {
                session.passkey = PasskeyRoute(challengeID: challengeID, options: options)
            }
            return open(session, biometricOffer: offer)
        case .finished:
            // Cancelled while the verification was being opened; it simply expires on the server.
            return .none
        case .initial, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            preconditionFailure(
                "serverStarted(_:) answers startServerVerification, which is only returned on entering starting")
        }
    }

    /// Opening the verification failed.
    public mutating func serverStartFailed(_ failure: VerificationServerFailure) -> Action {
        switch state {
        case .starting(let carried):
            switch failure {
            case .sessionExpired:
                return finish(.failed(.sessionExpired))
            case .noVerificationMethod:
                return finish(.failed(.noVerificationMethod))
            case .securityHold(let hold):
                // Issue 19 §2: the hold page instead of any method.
                return holdPage(carried, hold)
            case .policyLimit(let limit):
                // Issue 30 §3: the limit page instead of any method.
                return policyLimitPage(limit)
            case .newValueLocked(let lock):
                // Issue 30 §3: the locked new value, counting down, instead of any method.
                return newValueLockPage(carried, lock)
            case .network:
                state = .startFailed(carried)
                return .show(screens.startFailed(.network))
            case .wrongAnswer, .locked, .verificationGone, .rateLimited, .methodRefused, .other:
                state = .startFailed(carried)
                return .show(screens.startFailed(.server))
            }
        case .finished:
            // Cancelled while the verification was being opened.
            return .none
        case .initial, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            preconditionFailure(
                "serverStartFailed(_:) answers startServerVerification, which is only returned on entering starting")
        }
    }

    /// "再试一次" / "Try Again": evaluate again after a failure or interruption, or open a new verification after a
    /// time-out or a failed start.
    public mutating func userTappedRetry() -> Action {
        switch state {
        case .startFailed(let carried), .expired(let carried, _):
            state = .starting(carried)
            return .startServerVerification(context.request, screen: screens.preparing())
        case .active(let session, .biometric(let phase)):
            return biometricPageTappedRetry(session, phase)
        case .active(_, .secret), .active(_, .passkey), .active(_, .noMethodLeft), .active(_, .factorPassed), .starting,
            .held, .policyLimited, .newValueLocked, .finished:
            // A tap on a screen just replaced (a double tap): nothing to do.
            return .none
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        }
    }

    /// "取消" / "Cancel" (A4): close the page; the action is not executed and no token is handed out, even if
    /// the server's answer to a sent attempt is still on its way.
    public mutating func userTappedCancel() -> Action {
        switch state {
        case .starting, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            // On the hold page this is "关闭" / "Close": the action is not carried out either.
            return finish(.cancelled)
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .finished:
            // A second tap while the page closes.
            return .none
        }
    }

    /// The verification `verificationID` ran out of time (A8): the page offers "重新验证" / "Start Again".
    public mutating func timedOut(verificationID: String) -> Action {
        switch state {
        case .active(let session, let page):
            guard session.verificationID == verificationID else { return .none } // an earlier verification's timer
            switch page {
            case .biometric(let phase): return biometricPageTimedOut(session, phase)
            case .secret(_, let phase): return secretPageTimedOut(session, phase)
            case .passkey(let phase): return passkeyPageTimedOut(session, phase)
            case .noMethodLeft(_, let phase): return noMethodLeftPageTimedOut(session, phase)
            case .factorPassed: return expire(session.biometrics.carried, .timedOut)
            }
        case .starting, .startFailed, .expired, .finished, .held, .policyLimited, .newValueLocked:
            // An earlier verification's timer, or nothing left that could expire.
            return .none
        case .initial:
            preconditionFailure("the timer starts only after the server opened a verification")
        }
    }

    /// A second passed on the hold page (issue 19 §2) or the locked new value's page (issue 30 §3): the
    /// countdown moves on; once the wait has ended the page offers "重新验证" / "Start Again".
    public mutating func holdCountdownTicked() -> Action {
        switch state {
        case .held(let carried, let hold):
            return holdPage(carried, hold)
        case .newValueLocked(let carried, let lock):
            return newValueLockPage(carried, lock)
        case .initial:
            preconditionFailure("the countdown runs only on the hold and lock pages, which need start()")
        case .starting, .startFailed, .active, .expired, .policyLimited, .finished:
            // A tick scheduled just before the hold page was left: it means nothing now.
            return .none
        }
    }

    // MARK: Events routed to the page on screen

    /// "使用其他方式验证" / "Use Another Method" (A5): from biometrics to 2FA when bound, else the fund password; from a code
    /// page to the other code method.
    public mutating func userTappedOtherMethod() -> Action {
        switch state {
        case .active(let session, .biometric(let phase)):
            return biometricPageTappedOtherMethod(session, phase)
        case .active(let session, .secret(let method, let phase)):
            return secretPageTappedOtherMethod(session, method, phase)
        case .active(let session, .passkey(let phase)):
            return passkeyPageTappedOtherMethod(session, phase)
        case .active(_, .noMethodLeft), .active(_, .factorPassed), .starting, .startFailed, .expired, .finished, .held,
            .policyLimited, .newValueLocked:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        }
    }

    /// "使用密码验证" / "Use Password": the fund password, from any biometric page (A6, seed §8) or the passkey page.
    public mutating func userTappedUsePassword() -> Action {
        switch state {
        case .active(let session, .biometric(let phase)):
            return biometricPageTappedUsePassword(session, phase)
        case .active(let session, .passkey(let phase)):
            return passkeyPageTappedUsePassword(session, phase)
        case .active(_, .secret), .active(_, .noMethodLeft), .active(_, .factorPassed), .starting, .startFailed,
            .expired, .finished, .held, .policyLimited, .newValueLocked:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        }
    }

    /// "使用通行密钥验证": asks the device's passkey, from the passkey page or a code page.
    public mutating func userTappedUsePasskey() -> Action {
        switch state {
        case .active(let session, .passkey(let phase)):
            return passkeyPageTappedUsePasskey(session, phase)
        case .active(let session, .secret(_, .entering)), .active(let session, .noMethodLeft(_, .waiting)):
            guard let route = session.passkey else { return .none }
            return enterPasskey(session, route)
        case .active(_, .secret(_, .submitting)), .active(_, .secret(_, .sendingEmailCode)),
            .active(_, .secret(_, .unlockingBiometrics)), .active(_, .noMethodLeft(_, .unlockingBiometrics)),
            .active(_, .biometric), .active(_, .factorPassed), .starting, .startFailed,
            .expired, .finished, .held, .policyLimited, .newValueLocked:
            // The button is not on this screen: a tap on a screen just replaced (or a double tap).
            return .none
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        }
    }

    /// "前往设置" / "Open Settings" on the denial page (−6), and on the password page when biometrics need a face or finger
    /// enrolled (−7), a device passcode (−5) or turning on (−6).
    public mutating func userTappedOpenSettings() -> Action {
        switch state {
        case .active(_, .biometric(.permissionDenied)):
            return .openSettings
        case .active(_, .secret(_, .entering(let notice?))), .active(_, .noMethodLeft(let notice?, .waiting)):
            return notice.offersSettings ? .openSettings : .none
        case .active(_, .biometric), .active(_, .secret), .active(_, .noMethodLeft), .active(_, .passkey),
            .active(_, .factorPassed), .starting, .startFailed, .expired, .finished, .held, .policyLimited,
            .newValueLocked:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        }
    }

    /// The server accepted the attempt (A2): close the page with the token and the original context.
    public mutating func serverAttemptSucceeded(_ passed: VerificationPassed) -> Action {
        switch state {
        case .active(_, .biometric(.submittingSignature)):
            return finish(.succeeded(proof(passed, method: .biometric)))
        case .active(_, .secret(let method, .submitting)):
            return finish(.succeeded(proof(passed, method: method.method)))
        case .active(_, .passkey(.submitting)):
            return finish(.succeeded(proof(passed, method: .passkey)))
        case .finished:
            // Cancelled while the answer was on its way: the token is dropped unused, so the action is
            // not executed (A4).
            return .none
        case .initial, .starting, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            preconditionFailure(
                "attempts are sent only on entering the submitting phases, which only the answer or finishing leaves")
        }
    }

    /// The server refused the attempt or could not be reached.
    public mutating func serverAttemptFailed(_ failure: VerificationServerFailure) -> Action {
        switch state {
        case .active(let session, .biometric(.submittingSignature)):
            return biometricPageSignatureFailed(session, failure)
        case .active(let session, .secret(let method, .submitting)):
            return secretPageAttemptFailed(session, method, failure)
        case .active(let session, .passkey(.submitting)):
            return passkeyPageAttemptFailed(session, failure)
        case .finished:
            // Cancelled while the answer was on its way.
            return .none
        case .initial, .starting, .startFailed, .active, .expired, .held, .policyLimited, .newValueLocked:
            preconditionFailure(
                "attempts are sent only on entering the submitting phases, which only the answer or finishing leaves")
        }
    }

    // MARK: Transitions shared by several pages

    /// Chooses the first page for a freshly opened verification (A1, A5, A7), or for its next factor (issue 30 §3).
    mutating func open(_ session: Session, biometricOffer offer: VerificationMethodOffer?) -> Action {
        var session = session
        guard case .open(let failures, let permission, _) = session.biometrics else {
            // Biometrics were set aside earlier in this flow: straight to the password.
            return enterPassword(session, notice: nil)
        }
        guard let credentialID = device.biometricCredentialID, let offer,
            offer.credentialIds?.contains(credentialID) == true, let challengeID = offer.challengeId,
            let challenge = offer.challenge
        else {
            if device.biometricEnrollmentChanged, let sensor = device.biometry.sensor {
                // Seed 001: the enrolled faces or fingers changed since biometrics were enabled here; the
                // password page says so (issue 23 §1).
                return degrade(session, .enrollmentChanged, sensor: sensor)
            }
            // Biometrics are not enabled on this device (or no longer bound): a passkey of this device
            // (issue 13), else 2FA, else the fund password.
            if let route = session.passkey { return enterPasskey(session, route) }
            guard let target = session.otherTargetFromBiometrics else { return noMethodLeft(session, notice: nil) }
            return enterSecret(session, target, notice: nil)
        }
        func route(_ sensor: BiometryKind) -> BiometricRoute {
            BiometricRoute(sensor: sensor, credentialID: credentialID, challengeID: challengeID, challenge: challenge)
        }
        switch device.biometry {
        case .available(let sensor, _):
            session.biometrics = .open(failures: failures, permission: permission, route: route(sensor))
            return enterBiometrics(session)
        case .notSupported:
            return degrade(session, .unavailable(.notSupported), sensor: nil)
        case .notEnrolled(let sensor):
            return degrade(session, .unavailable(.notEnrolled), sensor: sensor)
        case .notAvailable(let sensor):
            return degrade(session, .unavailable(.notAvailable), sensor: sensor)
        case .lockedOut(let sensor):
            session.biometrics = .locked(route: route(sensor), permission: permission)
            return degrade(session, .unavailable(.lockedOut), sensor: sensor)
        }
    }

    /// Biometrics cannot be used (A7): set them aside (a lockout stays one) and go to the password, saying why.
    mutating func degrade(
        _ session: Session, _ reason: BiometricSetAsideReason, sensor: BiometryKind?
    ) -> Action {
        var session = session
        session.biometrics.setAside()
        return enterPassword(session, notice: .biometricsUnavailable(reason, sensor))
    }

    /// The hold page at the clock's time, counting down; the "expired" page with "重新验证" / "Start Again"
    /// once the hold is over.
    mutating func holdPage(_ carried: CarriedBiometrics, _ hold: VerificationHold) -> Action {
        let now = clock()
        guard now < hold.holdUntil else { return expire(carried, .holdEnded) }
        state = .held(carried, hold)
        return .showCountdown(screens.hold(hold, now: now))
    }

    /// The limit page (issue 30 §3): only "关闭" / "Close" leaves it.
    mutating func policyLimitPage(_ limit: VerificationPolicyLimit) -> Action {
        state = .policyLimited(limit)
        return .show(screens.policyLimit(limit, action: context.action))
    }

    /// The locked new value's page (issue 30 §3) at the clock's time, counting down; the "expired" page with
    /// "重新验证" / "Start Again" once the lock is over.
    mutating func newValueLockPage(_ carried: CarriedBiometrics, _ lock: VerificationNewValueLock) -> Action {
        let now = clock()
        guard now < lock.lockedUntil else { return expire(carried, .newValueLockEnded) }
        state = .newValueLocked(carried, lock)
        return .showCountdown(screens.newValueLocked(lock, action: context.action, now: now))
    }

    mutating func expire(_ carried: CarriedBiometrics, _ reason: ExpiryReason) -> Action {
        state = .expired(carried, reason)
        return .show(screens.expired(reason))
    }

    /// The time ran out while a system prompt (biometric or passcode) was up: take it down, then say so.
    mutating func expireTakingDownPrompt(_ session: Session) -> Action {
        state = .expired(session.biometrics.carried, .timedOut)
        return .cancelBiometricEvaluation(thenShow: screens.expired(.timedOut))
    }

    mutating func finish(_ result: VerificationResult) -> Action {
        state = .finished
        let text: String
        switch result {
        case .succeeded: text = strings.succeeded
        case .cancelled: text = strings.cancelled
        case .failed(let failure): text = strings.failed(failure)
        }
        return .finish(result, announcement: VerificationAnnouncement(text))
    }

    func proof(_ passed: VerificationPassed, method: VerificationMethodKind) -> VerificationProof {
        VerificationProof(
            token: passed.verificationToken, expiresIn: passed.expiresIn, context: context, method: method)
    }
}
