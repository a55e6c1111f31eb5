import LatchCore

/// Runs `BiometricSignIn` (C12, B6) against the sensor, the device key and the server. Every decision is
/// the machine's; the driver only performs the actions and feeds back what happened. It lives on the
/// main actor, so every update it returns is delivered there, ready for UI (B7).
///
///     let signIn = BiometricSignInDriver(
///         authenticator: authenticator, keys: keys, enrollment: BiometricEnrollmentStore(vault: vault),
///         api: api, language: .zhHans)
///     switch await signIn.start(hasStoredSession: hasTokens) {
///     case .finished(.signedIn(let tokens)): session.adopt(tokens)
///     case .finished(.useStoredSession): session.restore()
///     case .showSignIn(let screen): show(screen)        // password always; Face ID when screen.biometricOption != nil
///     case .pending: break                              // waiting for the app to become active, or superseded
///     }
///     // later: await signIn.biometricSignInTapped(), signIn.passwordChosen(), await signIn.appBecameActive()
@MainActor
public final class BiometricSignInDriver {
    /// Where a call left the flow.
    public enum Update: Sendable, Equatable {
        /// Show (or keep showing) the sign-in screen.
        case showSignIn(BiometricSignIn.SignInScreen)
        /// The app is entered.
        case finished(BiometricSignIn.Outcome)
        /// Nothing to show: the flow waits for the app to become active, a newer call took over, or the
        /// call did not apply (a second tap while a try is under way).
        case pending
    }

    private let authenticator: any BiometricAuthenticator
    private let keys: any DeviceKeyStore
    private let enrollment: BiometricEnrollmentStore
    private let api: any DeviceCredentialAPI
    private let language: LatchLanguage
    private let reason: String?
    private let fallbackButton: BiometricFallbackButton?
    private var machine: BiometricSignIn
    /// Started whenever a call starts new work, abandoned when the user chooses the password; a step whose
    /// ticket is no longer current after an `await` belongs to abandoned work and stops without feeding
    /// the machine.
    private var work = LatestWork()
    /// The current domain state when the enrollment check was `.unconfirmed` (an OS update changed its
    /// API): it becomes the baseline once the device key proves the enrollment unchanged by signing.
    private var unconfirmedReading: DomainStateReading?

    public init(
        authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore, enrollment: BiometricEnrollmentStore,
        api: any DeviceCredentialAPI, language: LatchLanguage = .en, reason: String? = nil,
        fallbackButton: BiometricFallbackButton? = nil
    ) {
        self.authenticator = authenticator
        self.keys = keys
        self.enrollment = enrollment
        self.api = api
        self.language = language
        self.reason = reason
        self.fallbackButton = fallbackButton
        self.machine = BiometricSignIn(language: language, reason: reason, fallbackButton: fallbackButton)
    }

    /// Starts biometric sign-in: at app launch, or when the signed-out sign-in screen appears.
    /// `hasStoredSession`: whether the vault holds the session's tokens (then a match only unlocks it).
    public func start(hasStoredSession: Bool) async -> Update {
        let ticket = work.start()
        machine = BiometricSignIn(language: language, reason: reason, fallbackButton: fallbackButton)
        let binding = await enrollment.binding()
        guard work.isCurrent(ticket) else { return .pending }
        return await run(machine.appLaunched(binding: binding, hasStoredSession: hasStoredSession), ticket: ticket)
    }

    /// The user tapped the biometric option on the sign-in screen.
    public func biometricSignInTapped() async -> Update {
        await begin(machine.userTappedBiometricSignIn())
    }

    /// The app became active (a prompt that could not appear in the background is shown now).
    public func appBecameActive() async -> Update {
        await begin(machine.appBecameActive())
    }

    /// The user tapped "输入设备密码解锁…" / "Unlock … with Passcode" after a lockout (seed 003 §5.3.2).
    public func unlockWithPasscodeTapped() async -> Update {
        await begin(machine.userTappedUnlockWithPasscode())
    }

    /// The user chose password sign-in: running steps are abandoned and the sign-in screen stays.
    public func passwordChosen() -> Update {
        let action = machine.userChosePassword()
        guard case .showSignIn(let screen) = action else { return .pending }
        work.abandon()
        return .showSignIn(screen)
    }

    private func begin(_ action: BiometricSignIn.Action) async -> Update {
        // `.none` changed nothing: work under way (if any) keeps its ticket.
        if case .none = action { return .pending }
        return await run(action, ticket: work.start())
    }

    private func run(_ first: BiometricSignIn.Action, ticket: LatestWork.Ticket) async -> Update {
        var action = first
        while true {
            switch action {
            case .none:
                return .pending
            case .showSignIn(let screen):
                return .showSignIn(screen)
            case .finish(let outcome):
                return .finished(outcome)
            case .checkAvailability:
                let availability = await authenticator.availability()
                let reading = await authenticator.domainStateReading()
                let check = await enrollment.check(reading: reading)
                guard work.isCurrent(ticket) else { return .pending }
                unconfirmedReading = check == .unconfirmed ? reading : nil
                action = machine.availabilityKnown(availability, enrollment: check)
            case .evaluate(let reason, let fallbackTitle, let cancelTitle):
                let result = await authenticator.evaluate(
                    reason: reason, fallbackTitle: fallbackTitle, cancelTitle: cancelTitle)
                guard work.isCurrent(ticket) else { return .pending }
                action = machine.evaluationFinished(result)
            case .requestChallenge(let credentialID):
                do {
                    let challenge = try await api.challenge(credentialID: credentialID)
                    guard work.isCurrent(ticket) else { return .pending }
                    action = machine.challengeReceived(challenge)
                } catch {
                    guard work.isCurrent(ticket) else { return .pending }
                    action = machine.serverRejected(Self.credentialError(error))
                }
            case .sign(let message):
                do {
                    let signature = try await keys.sign(message)
                    guard work.isCurrent(ticket) else { return .pending }
                    if let reading = unconfirmedReading {
                        // The key still signs: the enrollment did not change; the new state is the baseline.
                        unconfirmedReading = nil
                        try? await enrollment.rebaseline(to: reading)
                        guard work.isCurrent(ticket) else { return .pending }
                    }
                    action = machine.signed(signature: signature)
                } catch {
                    guard work.isCurrent(ticket) else { return .pending }
                    action = machine.signingFailed(error as? DeviceKeyError ?? .platform(code: 0))
                }
            case .exchange(let challengeID, let signature):
                do {
                    let tokens = try await api.signIn(challengeID: challengeID, signature: signature)
                    guard work.isCurrent(ticket) else { return .pending }
                    action = machine.tokensReceived(tokens)
                } catch {
                    guard work.isCurrent(ticket) else { return .pending }
                    action = machine.serverRejected(Self.credentialError(error))
                }
            case .unlockWithPasscode(let reason, let cancelTitle):
                let result = await authenticator.unlockWithPasscode(reason: reason, cancelTitle: cancelTitle)
                guard work.isCurrent(ticket) else { return .pending }
                action = machine.passcodeUnlockFinished(unlocked: result == .success)
            case .forgetBinding:
                // Turn it off first, then delete the key. A failure leaves a leftover that the next
                // check finds again; the session is never among what is deleted.
                try? await enrollment.forget()
                try? await keys.deleteKey()
                // No ticket check: nothing can abandon this step (userChosePassword ignores it).
                action = machine.bindingForgotten()
            }
        }
    }

    private static func credentialError(_ error: any Error) -> DeviceCredentialError {
        error as? DeviceCredentialError ?? .server(code: nil, message: nil)
    }
}
