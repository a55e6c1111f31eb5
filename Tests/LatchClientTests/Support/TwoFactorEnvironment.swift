// The verification driver's world for a two-factor plan (VerificationTwoFactorDriverTests).
import Foundation
import LatchClient
import LatchCore
import LatchTestSupport
import Testing

/// A world whose server asks for two factors: canned attempt results, the emailed codes recorded, timers
/// that never fire.
actor TwoFactorEnvironment: VerificationDriverEnvironment, ScreenLogging {
    private let started: VerificationStarted
    private var answers: [VerificationAttemptResult]
    private(set) var attempts: [VerificationAttempt] = []
    private(set) var emailCodesSent: [String] = []
    var log = ScreenLog()

    /// With a clock, a wait of one second (the resend label's tick) passes at once and moves it.
    private let clock: TestClock?
    private(set) var resendSleeps: [Int] = []

    init(started: VerificationStarted, answers: [VerificationAttemptResult], clock: TestClock? = nil) {
        self.started = started
        self.answers = answers
        self.clock = clock
    }

    func startVerification(_ request: VerificationRequest) async throws -> VerificationStarted { started }

    func submitAttempt(_ attempt: VerificationAttempt, verificationID: String) async throws -> VerificationPassed {
        Issue.record("the driver asks for the result, never for a pass only")
        throw VerificationServerFailure.network
    }

    func submitAttemptForResult(_ attempt: VerificationAttempt, verificationID: String) async throws
        -> VerificationAttemptResult
    {
        attempts.append(attempt)
        return answers.removeFirst()
    }

    func sendVerificationEmailCode(verificationID: String) async throws {
        emailCodesSent.append(verificationID)
    }

    func requestBiometricPermission() async -> Bool { true }
    func evaluateBiometrics(_ prompt: VerificationBiometricPrompt) async -> BiometricOutcome { .success }
    func unlockBiometricsWithPasscode(_ prompt: VerificationPasscodePrompt) async -> Bool { false }
    func cancelBiometricEvaluation() async {}
    func sign(_ message: SignedMessage, credentialID: String) async throws -> String { "sig" }
    func present(_ screen: VerificationScreen) async { log.append(screen) }
    func dismiss(announcing announcement: VerificationAnnouncement) async {}
    func openSettings() async {}

    /// Timers never fire here, but for the resend wait's one-second ticks when the test moves a clock.
    func sleep(seconds: Int) async throws {
        if let clock, seconds <= 1 {
            resendSleeps.append(seconds)
            clock.advance(by: TimeInterval(seconds))
            return
        }
        try await Task.sleep(for: .seconds(3600))
    }
}
