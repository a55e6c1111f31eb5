import LatchCore

/// Runs a `VerificationFlow` against the world: for every callback it does
/// `let action = flow.event(…)` and then runs that action, nothing else. Only the driver touches
/// the server, the sensor, the device key and the page, through its `Environment`.
///
///     let driver = VerificationDriver(
///         flow: VerificationFlow(context: context, device: device, language: .zhHans),
///         environment: environment)
///     // The page reports taps: driver.send(.tapped(.cancel))
///     switch await driver.run() {
///     case .succeeded(let proof): try await withdraw(proof.context, verificationToken: proof.token)
///     case .cancelled, .failed: break  // the action is not executed (A4)
///     }
///
/// Cancelling the task that awaits `run()` counts as "取消" / "Cancel".
public actor VerificationDriver<Environment: VerificationDriverEnvironment> {
    /// One callback into the flow.
    private enum Event: Sendable {
        case input(VerificationInput)
        case serverStarted(VerificationStarted, devicePasskey: Bool)
        case passkeyFinished(PasskeyAssertionOutcome)
        case serverStartFailed(VerificationServerFailure)
        case permissionAnswered(granted: Bool)
        case biometricFinished(BiometricOutcome, prompt: LatestWork.Ticket)
        case passcodeFinished(unlocked: Bool, prompt: LatestWork.Ticket)
        case signingFailed
        case attemptSucceeded(VerificationPassed)
        case attemptNeedsAnotherFactor(VerificationProgress)
        case emailCodeSent
        case emailCodeSendFailed(VerificationServerFailure)
        case emailCodeResendAvailable
        case attemptFailed(VerificationServerFailure)
        case timedOut(verificationID: String)
        case countdownTicked
    }

    private let environment: Environment
    private let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private var flow: VerificationFlow
    private var hasRun = false
    /// Work started for the flow (requests, prompts, timers); cancelled when it finishes.
    private var work: [Task<Void, Never>] = []
    /// The running system prompt (biometric or passcode): results of prompts that were taken down or
    /// replaced are dropped.
    private var prompt = LatestWork()
    /// The next tick of the hold page's countdown (issue 19 §2), while that page is up.
    private var countdown: Task<Void, Never>?
    /// The end of the emailed code's resend wait (issue 30 §3), while that page waits.
    private var resendWait: Task<Void, Never>?

    public init(flow: VerificationFlow, environment: Environment) {
        self.flow = flow
        self.environment = environment
        (self.events, self.continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Reports what the user did on the page. Safe from any thread; ignored after the flow ends.
    public nonisolated func send(_ input: VerificationInput) {
        continuation.yield(.input(input))
    }

    /// Runs the flow until it finishes and returns how. Call it once.
    public func run() async -> VerificationResult {
        precondition(!hasRun, "a VerificationDriver runs one flow, once")
        hasRun = true
        return await withTaskCancellationHandler {
            await loop()
        } onCancel: { [continuation] in
            continuation.yield(.input(.tapped(.cancel)))
        }
    }

    private func loop() async -> VerificationResult {
        if let result = await perform(flow.start()) { return result }
        for await event in events {
            let action = apply(event)
            if let result = await perform(action) { return result }
        }
        // The stream ends early only when the task awaiting run() is cancelled: that is "取消" / "Cancel",
        // with the same clean-up (prompt stopped, work cancelled, page closed).
        if let result = await perform(flow.userTappedCancel()) { return result }
        return .cancelled
    }

    /// The flow's answer to `event`.
    private func apply(_ event: Event) -> VerificationFlow.Action {
        switch event {
        case .input(let input):
            switch input {
            case .tapped(let button):
                switch button {
                case .retry: return flow.userTappedRetry()
                case .continue: return flow.userTappedContinue()
                case .usePassword: return flow.userTappedUsePassword()
                case .otherMethod: return flow.userTappedOtherMethod()
                case .useBiometrics: return flow.userTappedUseBiometrics()
                case .openSettings: return flow.userTappedOpenSettings()
                case .unlockWithPasscode: return flow.userTappedUnlockWithPasscode()
                case .usePasskey: return flow.userTappedUsePasskey()
                case .sendCode: return flow.userTappedSendCode()
                case .cancel: return flow.userTappedCancel()
                case .submit:
                    // The field's text arrives as .submittedCode / .submittedFundPassword.
                    return .none
                }
            case .submittedCode(let code):
                return flow.userSubmittedCode(code.value)
            case .submittedFundPassword(let password):
                return flow.userSubmittedFundPassword(password.value)
            case .appDidEnterBackground:
                return flow.appDidEnterBackground()
            }
        case .serverStarted(let started, let devicePasskey):
            startTimer(for: started)
            return flow.serverStarted(started, devicePasskey: devicePasskey)
        case .passkeyFinished(let outcome):
            return flow.passkeyAssertionFinished(outcome)
        case .serverStartFailed(let failure):
            return flow.serverStartFailed(failure)
        case .permissionAnswered(let granted):
            return flow.permissionPromptAnswered(granted: granted)
        case .biometricFinished(let outcome, let ticket):
            // A prompt the driver cancelled already told the flow where it went.
            guard prompt.finish(ticket) else { return .none }
            return flow.biometricFinished(outcome)
        case .passcodeFinished(let unlocked, let ticket):
            // A passcode prompt the driver cancelled already told the flow where it went.
            guard prompt.finish(ticket) else { return .none }
            return flow.passcodeUnlockFinished(unlocked: unlocked)
        case .signingFailed:
            return flow.signingFailed()
        case .attemptSucceeded(let passed):
            return flow.serverAttemptSucceeded(passed)
        case .attemptNeedsAnotherFactor(let progress):
            return flow.serverAttemptNeedsAnotherFactor(progress)
        case .emailCodeSent:
            return flow.emailCodeSent()
        case .emailCodeSendFailed(let failure):
            return flow.emailCodeSendFailed(failure)
        case .emailCodeResendAvailable:
            return flow.emailCodeResendAvailable()
        case .attemptFailed(let failure):
            return flow.serverAttemptFailed(failure)
        case .timedOut(let verificationID):
            return flow.timedOut(verificationID: verificationID)
        case .countdownTicked:
            return flow.holdCountdownTicked()
        }
    }

    /// Runs `action`; returns the result when it finishes the flow.
    private func perform(_ action: VerificationFlow.Action) async -> VerificationResult? {
        let environment = environment
        let continuation = continuation
        switch action {
        case .startServerVerification(let request, let screen):
            await environment.present(screen)
            spawn {
                do {
                    let started = try await environment.startVerification(request)
                    var devicePasskey = false
                    if let offer = started.methods.first(where: { $0.type == .passkey }), let options = offer.options {
                        devicePasskey = await environment.hasPasskey(for: options)
                    }
                    continuation.yield(.serverStarted(started, devicePasskey: devicePasskey))
                } catch {
                    continuation.yield(.serverStartFailed(Self.failure(from: error)))
                }
            }
        case .show(let screen):
            await environment.present(screen)
        case .showCountdown(let screen):
            await environment.present(screen)
            countdown?.cancel()
            countdown = Task {
                do {
                    try await environment.sleep(seconds: 1)
                } catch {
                    return // cancelled: the flow finished
                }
                continuation.yield(.countdownTicked)
            }
        case .requestBiometricPermission:
            spawn {
                continuation.yield(.permissionAnswered(granted: await environment.requestBiometricPermission()))
            }
        case .evaluateBiometrics(let prompt, let screen):
            await environment.present(screen)
            let ticket = self.prompt.start()
            spawn {
                continuation.yield(.biometricFinished(await environment.evaluateBiometrics(prompt), prompt: ticket))
            }
        case .unlockBiometricsWithPasscode(let prompt):
            // Tracked like a biometric prompt, so that a time-out or cancel takes it down the same way.
            let ticket = self.prompt.start()
            spawn {
                let unlocked = await environment.unlockBiometricsWithPasscode(prompt)
                continuation.yield(.passcodeFinished(unlocked: unlocked, prompt: ticket))
            }
        case .cancelBiometricEvaluation(let screen):
            await stopEvaluation()
            await environment.present(screen)
        case .submitBiometricSignature(let request, let screen):
            await environment.present(screen)
            spawn {
                let (signature, assertion): (String, String?)
                do {
                    let message = try request.message()
                    signature = try await environment.sign(message, credentialID: request.credentialID)
                    // App Attest (issue 31 §3): the app's assertion over the same message, when it has one.
                    assertion = await environment.appAttestAssertion(over: message, credentialID: request.credentialID)
                } catch {
                    continuation.yield(.signingFailed)
                    return
                }
                await Self.submit(
                    request.attempt(signature: signature, appAttestAssertion: assertion), request.verificationID,
                    environment, continuation)
            }
        case .submitCode(let verificationID, let code, let screen):
            await environment.present(screen)
            let attempt = VerificationAttempt(method: .totp, code: code.value)
            spawn { await Self.submit(attempt, verificationID, environment, continuation) }
        case .submitEmailCode(let verificationID, let code, let screen):
            await environment.present(screen)
            let attempt = VerificationAttempt(method: .emailCode, code: code.value)
            spawn { await Self.submit(attempt, verificationID, environment, continuation) }
        case .sendEmailCode(let verificationID, let screen):
            await environment.present(screen)
            spawn {
                do {
                    try await environment.sendVerificationEmailCode(verificationID: verificationID)
                    continuation.yield(.emailCodeSent)
                } catch {
                    continuation.yield(.emailCodeSendFailed(Self.failure(from: error)))
                }
            }
        case .showAwaitingResend(let screen, let seconds):
            await environment.present(screen)
            resendWait?.cancel()
            resendWait = Task {
                do {
                    // One second at a time: the flow shows the page again with the seconds left (a live label).
                    try await environment.sleep(seconds: min(seconds, 1))
                } catch {
                    return // cancelled: replaced, or the flow finished
                }
                continuation.yield(.emailCodeResendAvailable)
            }
        case .submitFundPassword(let verificationID, let password, let screen):
            await environment.present(screen)
            let attempt = VerificationAttempt(method: .fundPassword, fundPassword: password.value)
            spawn { await Self.submit(attempt, verificationID, environment, continuation) }
        case .getPasskeyAssertion(let options, let screen):
            await environment.present(screen)
            spawn { continuation.yield(.passkeyFinished(await environment.passkeyAssertion(options))) }
        case .submitPasskeyAssertion(let verificationID, let credential, let screen):
            await environment.present(screen)
            let attempt = VerificationAttempt(method: .passkey, credential: credential)
            spawn { await Self.submit(attempt, verificationID, environment, continuation) }
        case .openSettings:
            await environment.openSettings()
        case .finish(let result, let announcement):
            await stopEvaluation()
            countdown?.cancel()
            resendWait?.cancel()
            for task in work { task.cancel() }
            work.removeAll()
            continuation.finish()
            await environment.dismiss(announcing: announcement)
            return result
        case .none:
            break
        }
        return nil
    }

    private func startTimer(for started: VerificationStarted) {
        let environment = environment
        let continuation = continuation
        let seconds = VerificationFlow.timeout(for: started)
        let verificationID = started.verificationId
        spawn {
            do {
                try await environment.sleep(seconds: seconds)
            } catch {
                return // cancelled: the flow finished
            }
            continuation.yield(.timedOut(verificationID: verificationID))
        }
    }

    private func stopEvaluation() async {
        guard prompt.abandon() else { return }
        await environment.cancelBiometricEvaluation()
    }

    private func spawn(_ operation: @escaping @Sendable () async -> Void) {
        work.removeAll { $0.isCancelled }
        work.append(Task(operation: operation))
    }

    private static func submit(
        _ attempt: VerificationAttempt, _ verificationID: String, _ environment: Environment,
        _ continuation: AsyncStream<Event>.Continuation
    ) async {
        do {
            switch try await environment.submitAttemptForResult(attempt, verificationID: verificationID) {
            case .passed(let passed): continuation.yield(.attemptSucceeded(passed))
            case .needsAnotherFactor(let progress): continuation.yield(.attemptNeedsAnotherFactor(progress))
            }
        } catch {
            continuation.yield(.attemptFailed(failure(from: error)))
        }
    }

    private static func failure(from error: any Error) -> VerificationServerFailure {
        (error as? VerificationServerFailure) ?? .network
    }
}
