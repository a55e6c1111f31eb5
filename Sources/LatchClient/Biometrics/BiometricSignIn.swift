import LatchCore

/// Biometric sign-in (C12, B6) as a pure state machine: events in, one action out, no I/O.
/// `BiometricSignInDriver` runs it against the authenticator, the device key and the server.
///
/// - With a stored session and biometric login enabled, biometrics gate entering the app: a match
///   finishes with `.useStoredSession` (C12).
/// - Without a session, a bound device evaluates biometrics, asks the server for a login challenge,
///   signs it with the device key and exchanges the signature for tokens (B6).
/// - Without a binding there is no biometric option (B6), and any failure ends on the sign-in screen;
///   password sign-in is always offered there (C12).
/// - A changed enrollment (B4), a key the enclave no longer accepts, or a credential the server no longer
///   knows turns biometric login off on this device (`.forgetBinding`) — and never touches the session.
///
///     var signIn = BiometricSignIn(language: .zhHans)
///     signIn.appLaunched(binding: binding, hasStoredSession: false)   // .checkAvailability
///     signIn.availabilityKnown(.available(kind: .faceID), enrollment: .usable)   // .evaluate(…)
///     signIn.evaluationFinished(.success)                              // .requestChallenge(credentialID:)
public struct BiometricSignIn: Sendable {
    /// One try at biometric sign-in: the binding it uses and whether a session is stored.
    struct Attempt: Sendable, Hashable {
        var binding: BiometricBinding
        var hasStoredSession: Bool
        var kind: BiometryKind { binding.biometry }
    }

    enum State: Sendable {
        /// Nothing has happened yet.
        case idle
        /// Asking whether biometrics can be used, and whether the enrollment changed.
        case checkingAvailability(Attempt)
        /// The system prompt is up.
        case evaluating(Attempt)
        /// The prompt could not appear because the app was not active (−1004); it is shown again when
        /// the app becomes active.
        case waitingUntilActive(Attempt)
        /// Asking the server for a login challenge.
        case requestingChallenge(Attempt)
        /// The device key is signing the challenge `challengeID`.
        case signing(Attempt, challengeID: String)
        /// Exchanging the signature for tokens.
        case exchanging(Attempt)
        /// Turning biometric login off on this device; the sign-in screen then shows `notice`.
        case forgettingBinding(notice: BiometricNotice)
        /// The sign-in screen is up; tapping the biometric option starts `offered` again.
        case showingSignIn(offered: Attempt?)
        /// The sign-in screen is up after a lockout (−8, seed 003 §5.3.2): the device passcode can unlock
        /// biometrics, then `attempt` starts again (issue 23 §1).
        case lockedOut(Attempt)
        /// The device-passcode prompt is up.
        case unlockingWithPasscode(Attempt)
        /// The app was entered; nothing more happens.
        case finished
    }

    private var state: State = .idle
    private let language: LatchLanguage
    private let reason: String?
    private let fallbackTitle: String?

    /// - Parameters:
    ///   - language: of the prompt's default reason and fallback button.
    ///   - reason: the prompt's reason; default "Use Face ID to sign in to your account" in `language`.
    ///   - fallbackButton: the prompt's fallback button (B3); default "Sign in with password" in
    ///     `language`, which leads to the password form (−3).
    public init(language: LatchLanguage = .en, reason: String? = nil, fallbackButton: BiometricFallbackButton? = nil) {
        self.language = language
        self.reason = reason
        let button = fallbackButton ?? .custom(BiometricStrings.signInWithPassword(in: language))
        self.fallbackTitle = button.localizedFallbackTitle
    }

    // MARK: - Events

    /// The app launched, or the signed-out sign-in screen appeared. `binding` is the kept biometric
    /// binding (`BiometricEnrollmentStore.binding()`), `hasStoredSession` whether tokens are stored.
    public mutating func appLaunched(binding: BiometricBinding?, hasStoredSession: Bool) -> Action {
        guard case .idle = state else {
            preconditionFailure("appLaunched starts the flow; a driver creates one machine per start")
        }
        guard let binding else {
            if hasStoredSession {
                state = .finished
                return .finish(.useStoredSession)
            }
            state = .showingSignIn(offered: nil)
            return .showSignIn(SignInScreen(biometricOption: nil, notice: nil))
        }
        state = .checkingAvailability(Attempt(binding: binding, hasStoredSession: hasStoredSession))
        return .checkAvailability
    }

    /// Availability (B1) and the enrollment check (B4) are known. `enrollment` matters only when
    /// biometrics are available: the domain state cannot be read otherwise.
    public mutating func availabilityKnown(_ availability: BiometricAvailability, enrollment: EnrollmentCheck) -> Action
    {
        switch state {
        case .checkingAvailability(let attempt):
            switch (availability, enrollment) {
            case (.unavailable(.lockedOut), _):
                // Locked before this launch: the device passcode unlocks it (seed 003 §5.3.2).
                return lockedOut(attempt)
            case (.unavailable(let reason), _):
                return showSignIn(offering: nil, notice: .unavailable(reason, kind: attempt.kind))
            case (.available, .notEnabled):
                // The kept state vanished since launch (disabled meanwhile): nothing to offer, nothing to delete.
                return showSignIn(offering: nil, notice: nil)
            case (.available, .changed):
                state = .forgettingBinding(notice: .enrollmentChanged(attempt.kind))
                return .forgetBinding
            case (.available(let kind), .usable), (.available(let kind), .unconfirmed):
                // Unconfirmed (an OS update changed the state's API): the device key decides when it signs.
                state = .evaluating(attempt)
                return .evaluate(
                    reason: reason ?? BiometricStrings.signInReason(with: kind, in: language),
                    fallbackTitle: fallbackTitle,
                    cancelTitle: BiometricStrings.cancel(in: language))
            }
        case .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // Tolerated race: the user chose the password while availability was being checked.
            return .none
        case .idle, .evaluating, .waitingUntilActive, .requestingChallenge, .signing, .exchanging, .forgettingBinding:
            preconditionFailure("availabilityKnown only answers checkAvailability")
        }
    }

    /// The biometric prompt ended.
    public mutating func evaluationFinished(_ result: BiometricResult) -> Action {
        switch state {
        case .evaluating(let attempt):
            return evaluated(BiometricOutcome(result, kind: attempt.kind), attempt: attempt)
        case .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // Tolerated race: the user chose the password while the prompt was up.
            return .none
        case .idle, .checkingAvailability, .waitingUntilActive, .requestingChallenge, .signing, .exchanging,
            .forgettingBinding:
            preconditionFailure("evaluationFinished only answers evaluate")
        }
    }

    /// The app became active (after −1004 the prompt is shown now). Ignored in every other state.
    public mutating func appBecameActive() -> Action {
        switch state {
        case .waitingUntilActive(let attempt):
            state = .evaluating(attempt)
            return .evaluate(
                reason: reason ?? BiometricStrings.signInReason(with: attempt.kind, in: language),
                fallbackTitle: fallbackTitle,
                cancelTitle: BiometricStrings.cancel(in: language))
        case .idle, .checkingAvailability, .evaluating, .requestingChallenge, .signing, .exchanging, .forgettingBinding,
            .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // The app becomes active all the time; only a prompt that could not appear cares.
            return .none
        }
    }

    /// The server sent a login challenge.
    public mutating func challengeReceived(_ challenge: SignatureChallengeInfo) -> Action {
        switch state {
        case .requestingChallenge(let attempt):
            guard
                let message = try? SignedMessage.login(
                    challengeID: challenge.challengeId, challenge: challenge.challenge)
            else {
                // A challenge with a line feed cannot be signed unambiguously: refuse it.
                return showSignIn(offering: attempt, notice: .failed(attempt.kind))
            }
            state = .signing(attempt, challengeID: challenge.challengeId)
            return .sign(message)
        case .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // Tolerated race: the user chose the password while the request was under way.
            return .none
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .signing, .exchanging, .forgettingBinding:
            preconditionFailure("challengeReceived only answers requestChallenge")
        }
    }

    /// The device key signed the challenge.
    public mutating func signed(signature: String) -> Action {
        switch state {
        case .signing(let attempt, let challengeID):
            state = .exchanging(attempt)
            return .exchange(challengeID: challengeID, signature: signature)
        case .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // Tolerated race: the user chose the password while the key was signing.
            return .none
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .requestingChallenge, .exchanging,
            .forgettingBinding:
            preconditionFailure("signed only answers sign")
        }
    }

    /// The device key could not sign.
    public mutating func signingFailed(_ error: DeviceKeyError) -> Action {
        switch state {
        case .signing(let attempt, _):
            switch error {
            case .noKey:
                state = .forgettingBinding(notice: .bindingRemoved(attempt.kind))
                return .forgetBinding
            case .unusable:
                // The enclave refuses the key for good: the enrolled faces or fingers changed.
                state = .forgettingBinding(notice: .enrollmentChanged(attempt.kind))
                return .forgetBinding
            case .cancelled:
                return showSignIn(offering: attempt, notice: nil)
            case .authenticationFailed:
                return showSignIn(offering: attempt, notice: .notRecognized(attempt.kind))
            case .unavailable, .platform:
                return showSignIn(offering: attempt, notice: .failed(attempt.kind))
            }
        case .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // Tolerated race: the user chose the password while the key was signing.
            return .none
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .requestingChallenge, .exchanging,
            .forgettingBinding:
            preconditionFailure("signingFailed only answers sign")
        }
    }

    /// The server exchanged the signature for tokens.
    public mutating func tokensReceived(_ tokens: TokenResponse) -> Action {
        switch state {
        case .exchanging:
            state = .finished
            return .finish(.signedIn(tokens))
        case .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // Tolerated race: the user chose the password while the exchange was under way. The server
            // session it opened is left to expire; the password sign-in opens its own.
            return .none
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .requestingChallenge, .signing,
            .forgettingBinding:
            preconditionFailure("tokensReceived only answers exchange")
        }
    }

    /// The server refused the challenge request or the exchange, or could not be reached.
    public mutating func serverRejected(_ error: DeviceCredentialError) -> Action {
        switch state {
        case .requestingChallenge(let attempt), .exchanging(let attempt):
            switch error {
            case .credentialNotFound:
                state = .forgettingBinding(notice: .bindingRemoved(attempt.kind))
                return .forgetBinding
            case .signatureRejected:
                return showSignIn(offering: attempt, notice: .failed(attempt.kind))
            case .network:
                return showSignIn(offering: attempt, notice: .networkError)
            case .server(_, let message):
                return showSignIn(
                    offering: attempt, notice: message.map(BiometricNotice.server) ?? .failed(attempt.kind))
            }
        case .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // Tolerated race: the user chose the password while the request was under way.
            return .none
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .signing, .forgettingBinding:
            preconditionFailure("serverRejected only answers requestChallenge and exchange")
        }
    }

    /// The binding was deleted on this device (whether or not every deletion succeeded: a leftover is
    /// found again next time).
    public mutating func bindingForgotten() -> Action {
        switch state {
        case .forgettingBinding(let notice):
            return showSignIn(offering: nil, notice: notice)
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .requestingChallenge, .signing,
            .exchanging,
            .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            preconditionFailure(
                "bindingForgotten only answers forgetBinding, after which nothing else can move the state")
        }
    }

    /// The user tapped the biometric option on the sign-in screen.
    public mutating func userTappedBiometricSignIn() -> Action {
        switch state {
        case .showingSignIn(let offered?):
            state = .checkingAvailability(offered)
            return .checkAvailability
        case .showingSignIn(nil):
            // Tolerated: a stale button; no biometric option is offered now.
            return .none
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .requestingChallenge, .signing,
            .exchanging,
            .forgettingBinding, .finished, .lockedOut, .unlockingWithPasscode:
            // Tolerated: a second tap while a try is under way, after the app was entered, or a stale
            // biometric button after a lockout (no biometric option then: the passcode unlocks first).
            return .none
        }
    }

    /// The user chose password sign-in (always possible, C12): the flow stops where it is and rests on the
    /// sign-in screen; late answers to the abandoned steps are ignored.
    public mutating func userChosePassword() -> Action {
        switch state {
        case .checkingAvailability(let attempt), .evaluating(let attempt), .waitingUntilActive(let attempt),
            .requestingChallenge(let attempt), .signing(let attempt, _), .exchanging(let attempt):
            return showSignIn(offering: attempt, notice: nil)
        case .idle, .forgettingBinding, .showingSignIn, .finished, .lockedOut, .unlockingWithPasscode:
            // Already on (or about to show) the sign-in screen, or done.
            return .none
        }
    }

    /// "输入设备密码解锁指纹" / "Unlock Touch ID with Passcode" on the sign-in screen after a lockout: the
    /// device-passcode prompt.
    public mutating func userTappedUnlockWithPasscode() -> Action {
        switch state {
        case .lockedOut(let attempt):
            state = .unlockingWithPasscode(attempt)
            return .unlockWithPasscode(
                reason: BiometricStrings.passcodeReason(attempt.kind, in: language),
                cancelTitle: BiometricStrings.cancel(in: language))
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .requestingChallenge, .signing,
            .exchanging, .forgettingBinding, .showingSignIn, .unlockingWithPasscode, .finished:
            // Tolerated: the button is not on this screen (a stale or second tap).
            return .none
        }
    }

    /// The device-passcode prompt ended: entered → biometrics are checked and tried again at once; not
    /// entered → the locked sign-in screen stays.
    public mutating func passcodeUnlockFinished(unlocked: Bool) -> Action {
        switch state {
        case .unlockingWithPasscode(let attempt):
            guard unlocked else { return lockedOut(attempt) }
            state = .checkingAvailability(attempt)
            return .checkAvailability
        case .idle, .checkingAvailability, .evaluating, .waitingUntilActive, .requestingChallenge, .signing,
            .exchanging, .forgettingBinding, .showingSignIn, .lockedOut, .finished:
            // Tolerated: a late answer after the user moved on (the password chosen meanwhile).
            return .none
        }
    }

    // MARK: - Helpers

    /// This machine's reaction to each outcome of the one LAError mapping (`BiometricOutcome`).
    private mutating func evaluated(_ outcome: BiometricOutcome, attempt: Attempt) -> Action {
        switch outcome {
        case .success:
            if attempt.hasStoredSession {
                state = .finished
                return .finish(.useStoredSession)
            }
            state = .requestingChallenge(attempt)
            return .requestChallenge(credentialID: attempt.binding.credentialID)
        case .failed, .failedThenCancelled:
            // Touch ID's −1, or a Cancel after a failed scan (how Face ID ends a failed attempt).
            return showSignIn(offering: attempt, notice: .notRecognized(attempt.kind))
        case .userCancel, .systemCancel, .appCancel:
            return showSignIn(offering: attempt, notice: nil)
        case .userFallback:
            // The app's own fallback here is the password form, which the sign-in screen shows.
            return showSignIn(offering: attempt, notice: nil)
        case .lockout, .failedThenLockedOut:
            // Seed 003 §5.3.2: the device passcode unlocks biometrics, as on the verification page.
            return lockedOut(attempt)
        case .passcodeNotSet, .notAvailable, .permissionDenied, .notEnrolled:
            let notice = BiometricNotice(unusable: outcome, kind: attempt.kind) ?? .failed(attempt.kind)
            return showSignIn(offering: nil, notice: notice)
        case .notInteractive:
            state = .waitingUntilActive(attempt)
            return .none
        case .unexpected:
            return showSignIn(offering: attempt, notice: .failed(attempt.kind))
        }
    }

    /// The sign-in screen after a lockout: why, and the device passcode to unlock (issue 23 §1).
    private mutating func lockedOut(_ attempt: Attempt) -> Action {
        state = .lockedOut(attempt)
        return .showSignIn(
            SignInScreen(biometricOption: nil, notice: .lockedOut(attempt.kind), offersPasscodeUnlock: true))
    }

    private mutating func showSignIn(offering attempt: Attempt?, notice: BiometricNotice?) -> Action {
        state = .showingSignIn(offered: attempt)
        return .showSignIn(SignInScreen(biometricOption: attempt?.kind, notice: notice))
    }
}
