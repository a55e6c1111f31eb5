import Foundation
import LatchCore

/// The step-up verification page (seed CW-023, SPEC A1–A10) as a pure state machine.
///
/// Verification is alternative mode: Face ID / Touch ID, 2FA or the fund password, any ONE
/// passes. The flow opens a server verification, starts biometrics at once when they are enabled
/// and usable (A1), counts failures to three with the seed's exact messages (A3), explains and
/// handles the Face ID permission (A6), degrades to the password when biometrics cannot be used
/// (A7), survives interruptions and time-outs (A8), and finishes with the verification token and
/// the untouched action context (A2), or cancelled with no token (A4).
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

    enum State {
        /// Created; `start()` has not been called.
        case initial
        /// Waiting for the server to open a verification.
        case starting(BiometricStanding)
        /// Opening the verification failed; "再试一次" / "Try Again" asks again.
        case startFailed(BiometricStanding)
        /// First Face ID use: the explanation is on screen, waiting for "继续" / "Continue" (A6).
        case explainingPermission(Session)
        /// The system's Face ID permission prompt is up.
        case requestingPermission(Session)
        /// The Face ID permission is off: the denial message with "使用密码验证" / "Use Password" (A6).
        case permissionDenied(Session)
        /// The system biometric prompt is up.
        case evaluatingBiometrics(Session)
        /// A biometric attempt failed or was interrupted; "再试一次" / "Try Again" evaluates again.
        case awaitingBiometricRetry(Session, RetryReason)
        /// Biometrics passed on the device; the signed challenge is with the server.
        case submittingSignature(Session)
        /// A code page (2FA or fund password) waits for input, with an optional notice.
        case enteringSecret(Session, SecretMethod, Notice?)
        /// A code or fund password is with the server.
        case submittingSecret(Session, SecretMethod)
        /// The verification timed out, was used up or invalidated; "重新验证" / "Start Again" opens a new one.
        case expired(BiometricStanding, ExpiryReason)
        /// No method is left to try; only "取消" / "Cancel" (and, after a lockout, the passcode; or Settings).
        case noMethodLeft(Session, Notice?)
        /// Biometry is locked out and the device-passcode prompt is up (B2 −8); `page` is where it was
        /// asked from, shown again when the passcode is not entered.
        case unlockingBiometrics(Session, LockedPage)
        /// The passkey page waits for "使用通行密钥验证" after a cancelled, failed or refused attempt.
        case passkeyWaiting(Session, PasskeyNotice)
        /// The system passkey sheet is up.
        case assertingPasskey(Session)
        /// The passkey's assertion is with the server.
        case submittingPasskey(Session)
        /// A security hold refuses the action (issue 19 §2): the hold page with its live countdown, until
        /// "关闭" / "Close"; when the hold ends, the page offers "重新验证" / "Start Again".
        case held(BiometricStanding, VerificationHold)
        /// The page is closed (passed, cancelled or failed); later events are ignored.
        case finished
    }

    private var state: State = .initial
    /// The action being protected, handed back unchanged on success (A2, A8).
    private let context: VerificationContext
    private let device: VerificationDeviceState
    private let strings: VerificationStrings
    private let screens: VerificationScreens
    /// The current time, for the hold page's countdown (injected: tests decide it).
    private let clock: @Sendable () -> Date

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

    // MARK: Events

    /// The page opens for a sensitive action (A1): open a verification on the server.
    public mutating func start() -> Action {
        switch state {
        case .initial:
            let standing: BiometricStanding
            switch device.biometry {
            case .available(_, let permission):
                standing = .open(failures: 0, permission: permission)
            case .notSupported, .notEnrolled, .notAvailable, .lockedOut:
                // Biometrics are set aside when the server's offer arrives, with the reason (A7).
                standing = .open(failures: 0, permission: .granted)
            }
            state = .starting(standing)
            return .startServerVerification(context.request, screen: screens.preparing())
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret,
            .expired, .noMethodLeft, .unlockingBiometrics, .finished, .passkeyWaiting, .assertingPasskey,
            .submittingPasskey, .held:
            preconditionFailure("start() is called once, by the driver, before any other event")
        }
    }

    /// The server opened the verification and offers its methods. `devicePasskey` says whether this
    /// device has a passkey that can answer the server's passkey offer (the driver asks the
    /// authenticator with the offer's options); passkey is offered on the page only then.
    public mutating func serverStarted(_ started: VerificationStarted, devicePasskey: Bool = false) -> Action {
        switch state {
        case .starting(let standing):
            let offer = started.methods.first { $0.type == .biometric }
            var session = Session(started: started, standing: standing)
            if devicePasskey, let passkey = started.methods.first(where: { $0.type == .passkey }),
                let challengeID = passkey.challengeId, let options = passkey.options
            {
                session.passkey = PasskeyRoute(challengeID: challengeID, options: options)
            }
            return open(session, biometricOffer: offer)
        case .finished:
            // Cancelled while the verification was being opened; it simply expires on the server.
            return .none
        case .initial, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret,
            .expired, .noMethodLeft, .unlockingBiometrics, .passkeyWaiting, .assertingPasskey, .submittingPasskey,
            .held:
            preconditionFailure(
                "serverStarted(_:) answers startServerVerification, which is only returned on entering starting")
        }
    }

    /// Opening the verification failed.
    public mutating func serverStartFailed(_ failure: VerificationServerFailure) -> Action {
        switch state {
        case .starting(let standing):
            switch failure {
            case .sessionExpired:
                return finish(.failed(.sessionExpired))
            case .noVerificationMethod:
                return finish(.failed(.noVerificationMethod))
            case .securityHold(let hold):
                // Issue 19 §2: the hold page instead of any method.
                return holdPage(standing, hold)
            case .network:
                state = .startFailed(standing)
                return .show(screens.startFailed(.network))
            case .wrongAnswer, .locked, .verificationGone, .other:
                state = .startFailed(standing)
                return .show(screens.startFailed(.server))
            }
        case .finished:
            // Cancelled while the verification was being opened.
            return .none
        case .initial, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret,
            .expired, .noMethodLeft, .unlockingBiometrics, .passkeyWaiting, .assertingPasskey, .submittingPasskey,
            .held:
            preconditionFailure(
                "serverStartFailed(_:) answers startServerVerification, which is only returned on entering starting")
        }
    }

    /// "继续" / "Continue" on the permission explanation (A6): ask the system.
    public mutating func userTappedContinue() -> Action {
        switch state {
        case .explainingPermission(let session):
            state = .requestingPermission(session)
            return .requestBiometricPermission
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .starting, .startFailed, .requestingPermission, .permissionDenied, .evaluatingBiometrics,
            .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret, .expired, .noMethodLeft,
            .unlockingBiometrics,
            .finished, .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            // A tap on the explanation just replaced (a double tap): nothing to do.
            return .none
        }
    }

    /// The system permission prompt was answered (A6): granted → evaluation at once; denied → the
    /// denial message with "使用密码验证" / "Use Password".
    public mutating func permissionPromptAnswered(granted: Bool) -> Action {
        let permission: VerificationPermission = granted ? .granted : .denied
        switch state {
        case .requestingPermission(var session):
            guard granted else { return deny(session) }
            session.standing = session.standing.with(permission: permission)
            return enterBiometrics(session)
        case .starting(let standing):
            // The page timed out while the prompt was up and a new verification is opening: keep the answer.
            state = .starting(standing.with(permission: permission))
            return .none
        case .startFailed(let standing):
            state = .startFailed(standing.with(permission: permission))
            return .none
        case .held(let standing, let hold):
            // The page was held while the prompt was up: keep the answer for after the hold.
            state = .held(standing.with(permission: permission), hold)
            return .none
        case .expired(let standing, let reason):
            // Time ran out while the prompt was up: keep the answer for the next verification.
            state = .expired(standing.with(permission: permission), reason)
            return .none
        case .finished:
            // Cancelled while the prompt was up.
            return .none
        case .initial, .explainingPermission, .permissionDenied, .evaluatingBiometrics, .awaitingBiometricRetry,
            .submittingSignature, .enteringSecret, .submittingSecret, .noMethodLeft, .unlockingBiometrics,
            .passkeyWaiting, .assertingPasskey, .submittingPasskey:
            preconditionFailure(
                "the prompt is only requested on entering requestingPermission, which is left only by its answer, a time-out or cancel"
            )
        }
    }

    /// The system biometric prompt ended.
    public mutating func biometricFinished(_ outcome: BiometricOutcome) -> Action {
        switch state {
        case .evaluatingBiometrics(var session):
            guard let route = session.biometric, case .open(let failures, let permission) = session.standing else {
                preconditionFailure(
                    "evaluation only starts with a biometric route, which exists only while biometrics stand open")
            }
            switch outcome {
            case .success:
                state = .submittingSignature(session)
                let request = VerificationSignatureRequest(
                    verificationID: session.verificationID, credentialID: route.credentialID,
                    challengeID: route.challengeID, challenge: route.challenge, context: context)
                return .submitBiometricSignature(request, screen: screens.biometricChecking(sensor: route.sensor))
            case .failed, .failedThenCancelled:
                // Touch ID's −1, or a Cancel after a failed scan (how Face ID attempts end): one attempt.
                let count = failures + 1
                guard count < Self.maximumBiometricFailures else {
                    // A3: the third failure switches to the password by itself.
                    return tooManyFailures(session, sensor: route.sensor)
                }
                session.standing = .open(failures: count, permission: permission)
                state = .awaitingBiometricRetry(session, .failed)
                return .show(screens.biometricRetry(session, sensor: route.sensor, reason: .failed, failures: count))
            case .userCancel:
                // A4: the prompt's "取消" / "Cancel" is the page's cancel.
                return finish(.cancelled)
            case .systemCancel, .appCancel, .notInteractive:
                // A8: an interruption (or a prompt that could not appear while the app was not active)
                // is not a failure; the same attempt can be tried again.
                state = .awaitingBiometricRetry(session, .interrupted)
                return .show(
                    screens.biometricRetry(session, sensor: route.sensor, reason: .interrupted, failures: failures))
            case .unexpected:
                // −10 or an unknown code: not the user's failure, not counted; a new prompt may work.
                state = .awaitingBiometricRetry(session, .unexpected)
                return .show(
                    screens.biometricRetry(session, sensor: route.sensor, reason: .unexpected, failures: failures))
            case .userFallback:
                guard let target = session.passwordTarget else {
                    // The fallback button is hidden when nothing is left to fall back to; if it came
                    // anyway, the biometric page stays.
                    state = .awaitingBiometricRetry(session, .interrupted)
                    return .show(
                        screens.biometricRetry(session, sensor: route.sensor, reason: .interrupted, failures: failures))
                }
                return enterSecret(session, target, notice: nil)
            case .failedThenLockedOut:
                // The fifth consecutive failure, in this prompt: too many failed attempts (A3).
                return tooManyFailures(session, sensor: route.sensor)
            case .lockout:
                guard failures == 0 else {
                    // Locked right after a counted failure on this page: too many failed attempts (A3).
                    return tooManyFailures(session, sensor: route.sensor)
                }
                // Locked before this page (failures elsewhere): the password, and the passcode to unlock.
                session.lockedBiometrics = LockedBiometrics(route: route, permission: permission)
                return degrade(session, .lockedOut, sensor: route.sensor)
            case .notAvailable:
                return degrade(session, .notAvailable, sensor: route.sensor)
            case .passcodeNotSet:
                return degrade(session, .passcodeNotSet, sensor: route.sensor)
            case .notEnrolled:
                return degrade(session, .notEnrolled, sensor: route.sensor)
            case .permissionDenied:
                switch route.sensor {
                case .faceID:
                    return deny(session)
                case .touchID:
                    // Touch ID has no app permission; treat it as unavailable.
                    return degrade(session, .notAvailable, sensor: route.sensor)
                }
            }
        case .initial:
            preconditionFailure("no prompt runs before start()")
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret, .expired, .noMethodLeft,
            .unlockingBiometrics,
            .finished, .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            // A late result of a prompt the flow already left (app switch, time-out, another method,
            // cancel): it means nothing now.
            return .none
        }
    }

    /// The device key could not sign the challenge (e.g. the enrolment changed and the key is gone).
    public mutating func signingFailed() -> Action {
        switch state {
        case .submittingSignature(let session):
            return degrade(session, .notAvailable, sensor: session.biometric?.sensor)
        case .finished:
            // Cancelled while signing.
            return .none
        case .initial, .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .enteringSecret, .submittingSecret, .expired, .noMethodLeft,
            .unlockingBiometrics, .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            preconditionFailure(
                "signing only happens for submitBiometricSignature, returned only on entering submittingSignature")
        }
    }

    /// "再试一次" / "Try Again": evaluate again after a failure or interruption, or open a new verification after a
    /// time-out or a failed start.
    public mutating func userTappedRetry() -> Action {
        switch state {
        case .awaitingBiometricRetry(let session, _):
            return enterBiometrics(session)
        case .startFailed(let standing), .expired(let standing, _):
            state = .starting(standing)
            return .startServerVerification(context.request, screen: screens.preparing())
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .starting, .explainingPermission, .requestingPermission, .permissionDenied, .evaluatingBiometrics,
            .submittingSignature, .enteringSecret, .submittingSecret, .noMethodLeft, .unlockingBiometrics, .finished,
            .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            // A tap on a screen just replaced (a double tap): nothing to do.
            return .none
        }
    }

    /// "使用其他方式验证" / "Use Another Method" (A5): from biometrics to 2FA when bound, else the fund password; from a code
    /// page to the other code method.
    public mutating func userTappedOtherMethod() -> Action {
        switch state {
        case .passkeyWaiting(let session, _):
            guard let target = session.otherTargetFromBiometrics else { return .none }
            return enterSecret(session, target, notice: nil)
        case .explainingPermission(let session), .permissionDenied(let session),
            .awaitingBiometricRetry(let session, _):
            guard let target = session.otherTargetFromBiometrics else { return .none }
            return enterSecret(session, target, notice: nil)
        case .evaluatingBiometrics(let session):
            guard let target = session.otherTargetFromBiometrics else { return .none }
            state = .enteringSecret(session, target, nil)
            return .cancelBiometricEvaluation(thenShow: screens.secret(session, target, notice: nil, busy: false))
        case .enteringSecret(let session, let method, _):
            guard let other = session.otherSecret(than: method) else { return .none }
            return enterSecret(session, other, notice: nil)
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .starting, .startFailed, .requestingPermission, .submittingSignature, .submittingSecret, .expired,
            .noMethodLeft, .unlockingBiometrics, .finished, .assertingPasskey, .submittingPasskey, .held:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    /// "使用密码验证" / "Use Password": the fund password, from any biometric page (A6, seed §8).
    public mutating func userTappedUsePassword() -> Action {
        switch state {
        case .passkeyWaiting(let session, _):
            guard session.offersFundPassword else { return .none }
            return enterSecret(session, .fundPassword, notice: nil)
        case .explainingPermission(let session), .permissionDenied(let session),
            .awaitingBiometricRetry(let session, _):
            guard session.offersFundPassword else { return .none }
            return enterSecret(session, .fundPassword, notice: nil)
        case .evaluatingBiometrics(let session):
            guard session.offersFundPassword else { return .none }
            state = .enteringSecret(session, .fundPassword, nil)
            return .cancelBiometricEvaluation(
                thenShow: screens.secret(session, .fundPassword, notice: nil, busy: false))
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .starting, .startFailed, .requestingPermission, .submittingSignature, .enteringSecret, .submittingSecret,
            .expired, .noMethodLeft, .unlockingBiometrics, .finished, .assertingPasskey, .submittingPasskey, .held:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    /// "使用Face ID验证" / "Use Face ID" on a code page: back to biometrics while they stand open.
    public mutating func userTappedUseBiometrics() -> Action {
        switch state {
        case .enteringSecret(let session, _, _):
            guard session.biometric != nil else { return .none }
            return enterBiometrics(session)
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .submittingSecret, .expired,
            .noMethodLeft, .unlockingBiometrics, .finished, .passkeyWaiting, .assertingPasskey, .submittingPasskey,
            .held:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    /// "前往设置" / "Open Settings" on the denial page (−6), and on the password page when biometrics need a face or finger
    /// enrolled (−7), a device passcode (−5) or turning on (−6).
    public mutating func userTappedOpenSettings() -> Action {
        switch state {
        case .permissionDenied:
            return .openSettings
        case .enteringSecret(_, _, let notice?), .noMethodLeft(_, let notice?):
            return notice.offersSettings ? .openSettings : .none
        case .enteringSecret(_, _, nil), .noMethodLeft(_, nil):
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .evaluatingBiometrics,
            .awaitingBiometricRetry, .submittingSignature, .submittingSecret, .expired, .unlockingBiometrics, .finished,
            .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            // The button is not on this screen: a tap on a screen just replaced.
            return .none
        }
    }

    /// "输入设备密码解锁Face ID" / "Unlock Face ID with Passcode" on the password page after a lockout (B2 −8): ask for
    /// the device passcode,
    /// which unlocks biometry again.
    public mutating func userTappedUnlockWithPasscode() -> Action {
        let page: LockedPage
        let session: Session
        switch state {
        case .enteringSecret(let current, let method, let notice):
            (session, page) = (current, .secret(method, notice))
        case .noMethodLeft(let current, let notice):
            (session, page) = (current, .noMethodLeft(notice))
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .submittingSecret, .expired,
            .unlockingBiometrics, .finished, .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            // The button is not on this screen: a tap on a screen just replaced (or a double tap).
            return .none
        }
        guard let locked = session.lockedBiometrics else {
            // Only pages of a locked-out flow show the button.
            return .none
        }
        state = .unlockingBiometrics(session, page)
        return .unlockBiometricsWithPasscode(
            VerificationPasscodePrompt(
                sensor: locked.route.sensor, localizedReason: strings.passcodeReason(locked.route.sensor),
                cancelTitle: strings.cancel))
    }

    /// The device-passcode prompt ended: entered → biometry is unlocked and evaluated again at once
    /// (a fresh count of three); not entered → the page it was asked from, as it was.
    public mutating func passcodeUnlockFinished(unlocked: Bool) -> Action {
        switch state {
        case .unlockingBiometrics(var session, let page):
            guard unlocked, let locked = session.lockedBiometrics else {
                switch page {
                case .secret(let method, let notice): return enterSecret(session, method, notice: notice)
                case .noMethodLeft(let notice): return noMethodLeft(session, notice: notice)
                }
            }
            session.lockedBiometrics = nil
            session.biometric = locked.route
            session.standing = .open(failures: 0, permission: locked.permission)
            return enterBiometrics(session)
        case .initial:
            preconditionFailure("no prompt runs before start()")
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret,
            .expired, .noMethodLeft, .finished, .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            // A late answer of a prompt the page already left (time-out, cancel): it means nothing now.
            return .none
        }
    }

    /// "取消" / "Cancel" (A4): close the page; the action is not executed and no token is handed out, even if
    /// the server's answer to a sent attempt is still on its way.
    public mutating func userTappedCancel() -> Action {
        switch state {
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret,
            .expired, .noMethodLeft, .unlockingBiometrics, .passkeyWaiting, .assertingPasskey, .submittingPasskey,
            .held:
            // On the hold page this is "关闭" / "Close": the action is not carried out either.
            return finish(.cancelled)
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .finished:
            // A second tap while the page closes.
            return .none
        }
    }

    /// The user sent the 2FA code (or a recovery code) typed on the code page.
    public mutating func userSubmittedCode(_ text: String) -> Action {
        switch state {
        case .enteringSecret(let session, .totp, _):
            guard let code = Self.acceptedCode(text) else {
                return enterSecret(session, .totp, notice: .invalidFormat)
            }
            state = .submittingSecret(session, .totp)
            return .submitCode(
                verificationID: session.verificationID, code: VerificationSecret(code),
                screen: screens.secret(session, .totp, notice: nil, busy: true))
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be typed")
        case .enteringSecret(_, .fundPassword, _), .starting, .startFailed, .explainingPermission,
            .requestingPermission, .permissionDenied, .evaluatingBiometrics, .awaitingBiometricRetry,
            .submittingSignature, .submittingSecret, .expired, .noMethodLeft, .unlockingBiometrics, .finished,
            .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            // Sent from a code field no longer on screen (or twice): nothing to do.
            return .none
        }
    }

    /// The user sent the fund password typed on the fund-password page.
    public mutating func userSubmittedFundPassword(_ text: String) -> Action {
        switch state {
        case .enteringSecret(let session, .fundPassword, _):
            guard let password = Self.acceptedFundPassword(text) else {
                return enterSecret(session, .fundPassword, notice: .invalidFormat)
            }
            state = .submittingSecret(session, .fundPassword)
            return .submitFundPassword(
                verificationID: session.verificationID, password: VerificationSecret(password),
                screen: screens.secret(session, .fundPassword, notice: nil, busy: true))
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be typed")
        case .enteringSecret(_, .totp, _), .starting, .startFailed, .explainingPermission, .requestingPermission,
            .permissionDenied, .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .submittingSecret,
            .expired, .noMethodLeft, .unlockingBiometrics, .finished, .passkeyWaiting, .assertingPasskey,
            .submittingPasskey, .held:
            // Sent from a field no longer on screen (or twice): nothing to do.
            return .none
        }
    }

    /// The server accepted the attempt (A2): close the page with the token and the original context.
    public mutating func serverAttemptSucceeded(_ passed: VerificationPassed) -> Action {
        switch state {
        case .submittingSignature:
            return finish(.succeeded(proof(passed, method: .biometric)))
        case .submittingSecret(_, let method):
            return finish(.succeeded(proof(passed, method: method.method)))
        case .submittingPasskey:
            return finish(.succeeded(proof(passed, method: .passkey)))
        case .finished:
            // Cancelled while the answer was on its way: the token is dropped unused, so the action is
            // not executed (A4).
            return .none
        case .initial, .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .enteringSecret, .expired, .noMethodLeft,
            .unlockingBiometrics, .passkeyWaiting, .assertingPasskey, .held:
            preconditionFailure(
                "attempts are sent only on entering the submitting states, which only the answer or finishing leaves")
        }
    }

    /// The server refused the attempt or could not be reached.
    public mutating func serverAttemptFailed(_ failure: VerificationServerFailure) -> Action {
        switch state {
        case .submittingSignature(let session):
            let sensor = session.biometric?.sensor
            switch failure {
            case .sessionExpired:
                return finish(.failed(.sessionExpired))
            case .securityHold(let hold):
                // A hold started while the page was open (a security change elsewhere).
                return holdPage(session.standing, hold)
            case .verificationGone:
                return expire(session.standing, .invalidated)
            case .wrongAnswer(let remaining) where remaining == 0:
                // The signature was refused and the verification is used up: a new one, without biometrics.
                return expire(.closed, .attemptsUsedUp)
            case .wrongAnswer, .locked:
                // The server did not accept this device's signature (A11): biometrics cannot prove it here.
                return degrade(session, .rejected, sensor: sensor)
            case .network:
                return retryBiometrics(session, .network)
            case .noVerificationMethod, .other:
                return retryBiometrics(session, .serverError)
            }
        case .submittingPasskey(let session):
            switch failure {
            case .sessionExpired:
                return finish(.failed(.sessionExpired))
            case .securityHold(let hold):
                // A hold started while the page was open (a security change elsewhere).
                return holdPage(session.standing, hold)
            case .verificationGone:
                return expire(session.standing, .invalidated)
            case .wrongAnswer(let remaining):
                guard remaining != 0 else { return expire(session.standing, .attemptsUsedUp) }
                return waitForPasskey(session, .rejected(attemptsRemaining: remaining))
            case .locked:
                return waitForPasskey(session, .rejected(attemptsRemaining: nil))
            case .network:
                return waitForPasskey(session, .network)
            case .noVerificationMethod, .other:
                return waitForPasskey(session, .serverError)
            }
        case .submittingSecret(let session, let method):
            switch failure {
            case .sessionExpired:
                return finish(.failed(.sessionExpired))
            case .securityHold(let hold):
                // A hold started while the page was open (a security change elsewhere).
                return holdPage(session.standing, hold)
            case .verificationGone:
                return expire(session.standing, .invalidated)
            case .wrongAnswer(let remaining):
                guard remaining != 0 else { return expire(session.standing, .attemptsUsedUp) }
                return enterSecret(session, method, notice: .wrongAnswer(attemptsRemaining: remaining))
            case .locked(let until):
                return enterSecret(session, method, notice: .methodLocked(until: until))
            case .network:
                return enterSecret(session, method, notice: .network)
            case .noVerificationMethod, .other:
                return enterSecret(session, method, notice: .serverError)
            }
        case .finished:
            // Cancelled while the answer was on its way.
            return .none
        case .initial, .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .enteringSecret, .expired, .noMethodLeft,
            .unlockingBiometrics, .passkeyWaiting, .assertingPasskey, .held:
            preconditionFailure(
                "attempts are sent only on entering the submitting states, which only the answer or finishing leaves")
        }
    }

    /// The app went to the background (A8): a running prompt is cancelled and the page waits with
    /// "再试一次" / "Try Again"; the interruption is not counted as a failure.
    public mutating func appDidEnterBackground() -> Action {
        switch state {
        case .evaluatingBiometrics(let session):
            guard let route = session.biometric, case .open(let failures, _) = session.standing else {
                preconditionFailure(
                    "evaluation only starts with a biometric route, which exists only while biometrics stand open")
            }
            state = .awaitingBiometricRetry(session, .interrupted)
            return .cancelBiometricEvaluation(
                thenShow: screens.biometricRetry(
                    session, sensor: route.sensor, reason: .interrupted, failures: failures))
        case .initial:
            preconditionFailure("the driver reports lifecycle events only after start()")
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret, .expired, .noMethodLeft,
            .unlockingBiometrics,
            .finished, .passkeyWaiting, .assertingPasskey, .submittingPasskey, .held:
            // Nothing runs that leaving the app would cut off; the page waits as it is.
            return .none
        }
    }

    /// The verification `verificationID` ran out of time (A8): the page offers "重新验证" / "Start Again".
    public mutating func timedOut(verificationID: String) -> Action {
        switch state {
        case .explainingPermission(let session), .requestingPermission(let session), .permissionDenied(let session),
            .awaitingBiometricRetry(let session, _), .enteringSecret(let session, _, _):
            guard session.verificationID == verificationID else { return .none } // an earlier verification's timer
            return expire(session.standing, .timedOut)
        case .evaluatingBiometrics(let session), .unlockingBiometrics(let session, _):
            guard session.verificationID == verificationID else { return .none } // an earlier verification's timer
            state = .expired(session.standing, .timedOut)
            return .cancelBiometricEvaluation(thenShow: screens.expired(.timedOut))
        case .passkeyWaiting(let session, _), .assertingPasskey(let session):
            // A sheet still up finishes later; its result is dropped (passkeyAssertionFinished).
            guard session.verificationID == verificationID else { return .none } // an earlier verification's timer
            return expire(session.standing, .timedOut)
        case .submittingSignature, .submittingSecret, .submittingPasskey:
            // The answer is on its way; the server decides (an expired verification answers "gone").
            return .none
        case .starting, .startFailed, .expired, .noMethodLeft, .finished, .held:
            // An earlier verification's timer, or nothing left that could expire.
            return .none
        case .initial:
            preconditionFailure("the timer starts only after the server opened a verification")
        }
    }

    /// "使用通行密钥验证": asks the device's passkey, from the passkey page or a code page.
    public mutating func userTappedUsePasskey() -> Action {
        switch state {
        case .passkeyWaiting(let session, _):
            return enterPasskey(session)
        case .enteringSecret(let session, _, _), .noMethodLeft(let session, _):
            guard session.passkey != nil else { return .none }
            return enterPasskey(session)
        case .initial:
            preconditionFailure("no screen is shown before start(), so nothing can be tapped")
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics,
            .awaitingBiometricRetry, .submittingSignature, .submittingSecret, .expired, .unlockingBiometrics,
            .assertingPasskey,
            .submittingPasskey, .finished, .held:
            // The button is not on this screen: a tap on a screen just replaced (or a double tap).
            return .none
        }
    }

    /// The device's passkey answered (or did not): an assertion goes to the server; a closed sheet or a
    /// failure leaves the passkey page waiting, with the other methods offered.
    public mutating func passkeyAssertionFinished(_ outcome: PasskeyAssertionOutcome) -> Action {
        switch state {
        case .assertingPasskey(let session):
            switch outcome {
            case .asserted(let credential):
                state = .submittingPasskey(session)
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
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics,
            .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret, .expired, .noMethodLeft,
            .unlockingBiometrics, .passkeyWaiting, .submittingPasskey, .finished, .held:
            // A late answer of a sheet the page already left (time-out, cancel): it means nothing now.
            return .none
        }
    }

    /// A second passed on the hold page (issue 19 §2): the countdown moves on; once the hold has ended
    /// the page offers "重新验证" / "Start Again".
    public mutating func holdCountdownTicked() -> Action {
        switch state {
        case .held(let standing, let hold):
            return holdPage(standing, hold)
        case .initial:
            preconditionFailure("the countdown runs only on the hold page, which needs start()")
        case .starting, .startFailed, .explainingPermission, .requestingPermission, .permissionDenied,
            .evaluatingBiometrics, .awaitingBiometricRetry, .submittingSignature, .enteringSecret, .submittingSecret,
            .expired, .noMethodLeft, .unlockingBiometrics, .passkeyWaiting, .assertingPasskey, .submittingPasskey,
            .finished:
            // A tick scheduled just before the hold page was left: it means nothing now.
            return .none
        }
    }

    // MARK: Transitions shared by several events

    /// The hold page at the clock's time, counting down; the "expired" page with "重新验证" / "Start Again"
    /// once the hold is over.
    private mutating func holdPage(_ standing: BiometricStanding, _ hold: VerificationHold) -> Action {
        let now = clock()
        guard now < hold.holdUntil else { return expire(standing, .holdEnded) }
        state = .held(standing, hold)
        return .showCountdown(screens.hold(hold, now: now))
    }

    /// Passkey (issue 13): the system sheet at once, over the options bound to this verification.
    private mutating func enterPasskey(_ session: Session) -> Action {
        guard let route = session.passkey else { preconditionFailure("the passkey page needs a passkey route") }
        state = .assertingPasskey(session)
        return .getPasskeyAssertion(route.options, screen: screens.passkey(session, notice: nil, busy: .sheet))
    }

    private mutating func waitForPasskey(_ session: Session, _ notice: PasskeyNotice) -> Action {
        state = .passkeyWaiting(session, notice)
        return .show(screens.passkey(session, notice: notice, busy: nil))
    }

    /// Chooses the first page for a freshly opened verification (A1, A5, A7).
    private mutating func open(_ session: Session, biometricOffer offer: VerificationMethodOffer?) -> Action {
        var session = session
        switch session.standing {
        case .closed:
            // Biometrics were set aside earlier in this flow: straight to the password.
            return enterPassword(session, notice: nil)
        case .open:
            break
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
            if session.passkey != nil { return enterPasskey(session) }
            guard let target = session.otherTargetFromBiometrics else { return noMethodLeft(session, notice: nil) }
            return enterSecret(session, target, notice: nil)
        }
        switch device.biometry {
        case .available(let sensor, _):
            session.biometric = BiometricRoute(
                sensor: sensor, credentialID: credentialID, challengeID: challengeID, challenge: challenge)
            return enterBiometrics(session)
        case .notSupported:
            return degrade(session, .notSupported, sensor: nil)
        case .notEnrolled(let sensor):
            return degrade(session, .notEnrolled, sensor: sensor)
        case .notAvailable(let sensor):
            return degrade(session, .notAvailable, sensor: sensor)
        case .lockedOut(let sensor):
            if case .open(_, let permission) = session.standing {
                let route = BiometricRoute(
                    sensor: sensor, credentialID: credentialID, challengeID: challengeID, challenge: challenge)
                session.lockedBiometrics = LockedBiometrics(route: route, permission: permission)
            }
            return degrade(session, .lockedOut, sensor: sensor)
        }
    }

    /// A3: too many failed attempts; biometrics are set aside and the password page says so.
    private mutating func tooManyFailures(_ session: Session, sensor: VerificationSensor) -> Action {
        var session = session
        session.closeBiometrics()
        return enterPassword(session, notice: .tooManyBiometricFailures(sensor))
    }

    /// Biometrics, minding the Face ID permission (A6): explain first on first use, evaluate at
    /// once when granted (A1), the denial page when refused.
    private mutating func enterBiometrics(_ session: Session) -> Action {
        guard let route = session.biometric, case .open(_, let permission) = session.standing else {
            preconditionFailure("a biometric route exists only while biometrics stand open")
        }
        switch (route.sensor, permission) {
        case (.touchID, _), (.faceID, .granted):
            state = .evaluatingBiometrics(session)
            let fallbackTitle =
                session.offersFundPassword
                ? strings.usePassword : (session.otherTargetFromBiometrics == nil ? "" : strings.otherMethod)
            let prompt = VerificationBiometricPrompt(
                sensor: route.sensor,
                localizedReason: context.localizedReason ?? strings.biometricMessage(for: route.sensor),
                fallbackTitle: fallbackTitle, cancelTitle: strings.cancel)
            return .evaluateBiometrics(prompt, screen: screens.biometric(session, sensor: route.sensor))
        case (.faceID, .notDetermined):
            state = .explainingPermission(session)
            return .show(screens.permissionExplanation(session, sensor: route.sensor))
        case (.faceID, .denied):
            return deny(session)
        }
    }

    /// The Face ID permission is off (A6).
    private mutating func deny(_ session: Session) -> Action {
        var session = session
        session.closeBiometrics()
        state = .permissionDenied(session)
        return .show(screens.permissionDenied(session, sensor: .faceID))
    }

    /// Biometrics cannot be used (A7): set them aside and go to the password, saying why.
    private mutating func degrade(
        _ session: Session, _ reason: BiometricsUnavailableReason, sensor: VerificationSensor?
    ) -> Action {
        var session = session
        session.closeBiometrics()
        return enterPassword(session, notice: .biometricsUnavailable(reason, sensor))
    }

    /// Password verification (A3, A7): the fund password, else 2FA, else nothing left.
    private mutating func enterPassword(_ session: Session, notice: Notice?) -> Action {
        guard let target = session.passwordTarget else { return noMethodLeft(session, notice: notice) }
        return enterSecret(session, target, notice: notice)
    }

    private mutating func enterSecret(_ session: Session, _ method: SecretMethod, notice: Notice?) -> Action {
        state = .enteringSecret(session, method, notice)
        return .show(screens.secret(session, method, notice: notice, busy: false))
    }

    private mutating func noMethodLeft(_ session: Session, notice: Notice?) -> Action {
        // A passkey of this device is a method too (issue 13).
        if session.passkey != nil { return enterPasskey(session) }
        state = .noMethodLeft(session, notice)
        return .show(screens.noMethodAvailable(session, notice: notice))
    }

    private mutating func retryBiometrics(_ session: Session, _ reason: RetryReason) -> Action {
        guard let route = session.biometric, case .open(let failures, _) = session.standing else {
            preconditionFailure(
                "a signature is only sent with a biometric route, which exists only while biometrics stand open")
        }
        state = .awaitingBiometricRetry(session, reason)
        return .show(screens.biometricRetry(session, sensor: route.sensor, reason: reason, failures: failures))
    }

    private mutating func expire(_ standing: BiometricStanding, _ reason: ExpiryReason) -> Action {
        state = .expired(standing, reason)
        return .show(screens.expired(reason))
    }

    private mutating func finish(_ result: VerificationResult) -> Action {
        state = .finished
        let text: String
        switch result {
        case .succeeded: text = strings.succeeded
        case .cancelled: text = strings.cancelled
        case .failed(let failure): text = strings.failed(failure)
        }
        return .finish(result, announcement: VerificationAnnouncement(text))
    }

    private func proof(_ passed: VerificationPassed, method: VerificationMethodKind) -> VerificationProof {
        VerificationProof(
            token: passed.verificationToken, expiresIn: passed.expiresIn, context: context, method: method)
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

    /// A fund password: exactly 6 ASCII digits (surrounding spaces dropped); `nil` otherwise.
    static func acceptedFundPassword(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count == codeLength, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return trimmed
    }
}

extension VerificationFlow.BiometricStanding {
    /// The same standing with a newly learnt Face ID permission.
    func with(permission: VerificationPermission) -> Self {
        switch self {
        case .open(let failures, _): .open(failures: failures, permission: permission)
        case .closed: .closed
        }
    }
}
