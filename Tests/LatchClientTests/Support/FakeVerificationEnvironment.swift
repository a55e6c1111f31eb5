// The verification driver's scripted environment (VerificationDriverTests and others).
import Foundation
import LatchClient
import LatchCore
import Testing

/// A scripted world for the driver: canned server answers and prompt outcomes, recorded calls, and
/// timers that fire when the test says so.
actor FakeVerificationEnvironment: VerificationDriverEnvironment, ScreenLogging {
    enum Start: Sendable {
        case success(VerificationStarted)
        case failure(VerificationServerFailure)
        /// Throws an error that is not a server answer.
        case thrown
    }

    enum Prompt: Sendable {
        case outcome(BiometricOutcome)
        /// Stays up until the driver cancels it, then reports `.appCancel`.
        case untilCancelled
    }

    struct NotAnAnswer: Error {}

    private var starts: [Start]
    private var outcomes: [Prompt]
    private var attemptAnswers: [Result<VerificationPassed, VerificationServerFailure>]
    private let permission: Bool
    private let signingFails: Bool
    /// Answers of the device-passcode prompt, in order: entered or not.
    private var passcodeAnswers: [Bool]

    private(set) var startRequests: [VerificationRequest] = []
    private(set) var attempts: [(attempt: VerificationAttempt, verificationID: String)] = []
    private(set) var evaluationPrompts: [VerificationBiometricPrompt] = []
    private(set) var cancelledEvaluations = 0
    private(set) var passcodePrompts: [VerificationPasscodePrompt] = []
    var log = ScreenLog()
    var screens: [VerificationScreen] { log.screens }
    private(set) var dismissals: [VerificationAnnouncement] = []
    private(set) var settingsOpened = 0
    private(set) var timerSeconds: [Int] = []
    private var timerRound = 0
    private var runningTimers = 0
    /// A cancel arrived that no prompt has taken yet (it may come before the prompt starts).
    private var pendingCancel = false

    init(
        starts: [Start], outcomes: [Prompt], permission: Bool = true,
        attempts: [Result<VerificationPassed, VerificationServerFailure>] = [.success(VerificationFixtures.passed)],
        signingFails: Bool = false, passcodes: [Bool] = []
    ) {
        self.passcodeAnswers = passcodes
        self.starts = starts
        self.outcomes = outcomes
        self.permission = permission
        self.attemptAnswers = attempts
        self.signingFails = signingFails
    }

    // MARK: Test controls

    /// Fires the timers that are running, once at least one is (the driver starts its timer from a
    /// task of its own, so it may not be running yet when the test gets here).
    func fireTimers() async throws {
        while runningTimers == 0 {
            try await Task.sleep(for: .milliseconds(2))
        }
        timerRound += 1
    }

    // MARK: VerificationDriverEnvironment

    func startVerification(_ request: VerificationRequest) async throws -> VerificationStarted {
        startRequests.append(request)
        switch starts.removeFirst() {
        case .success(let started): return started
        case .failure(let failure): throw failure
        case .thrown: throw NotAnAnswer()
        }
    }

    func submitAttempt(_ attempt: VerificationAttempt, verificationID: String) async throws -> VerificationPassed {
        attempts.append((attempt, verificationID))
        return try attemptAnswers.removeFirst().get()
    }

    func requestBiometricPermission() async -> Bool {
        permission
    }

    func evaluateBiometrics(_ prompt: VerificationBiometricPrompt) async -> BiometricOutcome {
        evaluationPrompts.append(prompt)
        switch outcomes.removeFirst() {
        case .outcome(let outcome):
            return outcome
        case .untilCancelled:
            while !pendingCancel, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(2))
            }
            pendingCancel = false
            return .appCancel
        }
    }

    func unlockBiometricsWithPasscode(_ prompt: VerificationPasscodePrompt) async -> Bool {
        passcodePrompts.append(prompt)
        return passcodeAnswers.isEmpty ? false : passcodeAnswers.removeFirst()
    }

    func cancelBiometricEvaluation() async {
        cancelledEvaluations += 1
        pendingCancel = true
    }

    func sign(_ message: SignedMessage, credentialID: String) async throws -> String {
        if signingFails { throw NotAnAnswer() }
        return "sig:" + message.text
    }

    func present(_ screen: VerificationScreen) async {
        log.append(screen)
    }

    func dismiss(announcing announcement: VerificationAnnouncement) async {
        dismissals.append(announcement)
    }

    func openSettings() async {
        settingsOpened += 1
    }

    func sleep(seconds: Int) async throws {
        timerSeconds.append(seconds)
        let round = timerRound
        runningTimers += 1
        defer { runningTimers -= 1 }
        while timerRound == round {
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
