import Foundation
import LatchClient
import LatchCore
import Testing

/// Fakes `VerificationDriverEnvironment` with a passkey answer and no biometrics; everything else does nothing.
actor PasskeyEnvironment: VerificationDriverEnvironment {
    let started: VerificationStarted
    let devicePasskey: Bool
    private(set) var askedOptions: [PublicKeyCredentialRequestOptionsJSON] = []
    private(set) var sheets: [PublicKeyCredentialRequestOptionsJSON] = []
    private(set) var attempts: [VerificationAttempt] = []
    private(set) var screens: [VerificationScreen] = []

    init(started: VerificationStarted, devicePasskey: Bool) {
        self.started = started
        self.devicePasskey = devicePasskey
    }

    func startVerification(_ request: VerificationRequest) async throws -> VerificationStarted { started }
    func submitAttempt(_ attempt: VerificationAttempt, verificationID: String) async throws -> VerificationPassed {
        attempts.append(attempt)
        return VerificationFixtures.passed
    }
    func requestBiometricPermission() async -> Bool { false }
    func evaluateBiometrics(_ prompt: VerificationBiometricPrompt) async -> BiometricOutcome { .notAvailable }
    func unlockBiometricsWithPasscode(_ prompt: VerificationPasscodePrompt) async -> Bool { false }
    func cancelBiometricEvaluation() async {}
    func sign(_ message: SignedMessage, credentialID: String) async throws -> String { "" }
    func present(_ screen: VerificationScreen) async { screens.append(screen) }
    func dismiss(announcing announcement: VerificationAnnouncement) async {}
    func openSettings() async {}
    func sleep(seconds: Int) async throws { try await Task.sleep(for: .seconds(3600)) }

    func hasPasskey(for options: PublicKeyCredentialRequestOptionsJSON) async -> Bool {
        askedOptions.append(options)
        return devicePasskey
    }

    func passkeyAssertion(_ options: PublicKeyCredentialRequestOptionsJSON) async -> PasskeyAssertionOutcome {
        sheets.append(options)
        return .asserted(VerificationFixtures.passkeyAssertion)
    }
}
