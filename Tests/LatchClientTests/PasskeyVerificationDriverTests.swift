// Issue 13 §2: the driver asks the environment whether the device has a passkey for the server's
// offer, runs the sheet, and sends the assertion as a `passkey` attempt.
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("Verification driver: passkey (issue 13 §2)")
struct PasskeyVerificationDriverTests {
    typealias F = VerificationFixtures

    /// An environment with a passkey answer and no biometrics; everything else does nothing.
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
            return F.passed
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
            return .asserted(F.passkeyAssertion)
        }
    }

    @Test func test_I13_theDriverRunsTheSheetAndSendsAPasskeyAttempt() async throws {
        let started = F.withPasskey(F.started(biometric: false))
        let environment = PasskeyEnvironment(started: started, devicePasskey: true)
        let driver = VerificationDriver(flow: F.flow(F.device(enabled: false)), environment: environment)

        let result = await driver.run()

        #expect(
            result
                == .succeeded(
                    VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .passkey)))
        let options = F.passkeyOffer(for: started).options
        #expect(await environment.askedOptions == [options!])
        #expect(await environment.sheets == [options!])
        #expect(await environment.attempts == [VerificationAttempt(method: .passkey, credential: F.passkeyAssertion)])
        #expect(await environment.screens.map(\.kind) == [.preparing, .passkey, .passkey])
    }

    @Test func test_I13_withoutAPasskeyHereTheDriverNeverOpensTheSheet() async throws {
        let started = F.withPasskey(F.started(biometric: false))
        let environment = PasskeyEnvironment(started: started, devicePasskey: false)
        let driver = VerificationDriver(flow: F.flow(F.device(enabled: false)), environment: environment)

        let run = Task { await driver.run() }
        while await environment.screens.last?.kind != .oneTimeCode { try await Task.sleep(for: .milliseconds(2)) }
        driver.send(.tapped(.cancel))

        #expect(await run.value == .cancelled)
        #expect(await environment.askedOptions.count == 1)
        #expect(await environment.sheets.isEmpty)
        #expect(await environment.screens.last?.button(.usePasskey) == nil)
    }
}
