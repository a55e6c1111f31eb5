import Foundation
import LatchCore

/// The verification page's environment for a verification started elsewhere and approved on this phone
/// (issue 43 §2): the seed's page, unchanged, over the verification the initiator opened. It opens nothing
/// (the server's offers come from `GET /v1/verifications/{id}`), every attempt carries the number the user
/// picked, and the phone's pass (`{"approved": true}`: the token waits for the initiator) finishes the page.
/// A wrong number ends the verification on the server; the page is then closed at once.
struct PhoneApprovalEnvironment<Presenter: VerificationPresenter>: VerificationDriverEnvironment {
    let inner: LatchVerificationEnvironment<Presenter>
    let details: PhoneVerificationDetails
    let number: String
    let record: PhoneApprovalRecord

    /// The verification as the initiator opened it, with this phone's live offers.
    func startVerification(_ request: VerificationRequest) async throws -> VerificationStarted {
        let methods = details.methods ?? []
        guard let first = methods.first else { throw VerificationServerFailure.noVerificationMethod }
        let preferred = methods.contains { $0.type == .biometric } ? .biometric : first.type
        let left = max(1, Int(details.expiresAt.timeIntervalSince(inner.client.clock()).rounded(.down)))
        return VerificationStarted(
            verificationId: details.verificationId, methods: methods, preferred: preferred, expiresIn: left)
    }

    func submitAttempt(_ attempt: VerificationAttempt, verificationID: String) async throws -> VerificationPassed {
        switch try await submitAttemptForResult(attempt, verificationID: verificationID) {
        case .passed(let passed): return passed
        case .needsAnotherFactor: throw VerificationServerFailure.network
        }
    }

    /// The attempt with the picked number. The phone's pass carries no token (only the initiator collects
    /// it): the page gets an empty one, which ``LatchClient/approveOnPhone(_:number:authenticator:keys:presenter:language:)`` never hands out.
    func submitAttemptForResult(_ attempt: VerificationAttempt, verificationID: String) async throws
        -> VerificationAttemptResult
    {
        do {
            switch try await inner.client.submitPhoneAttempt(attempt, number: number, verificationID: verificationID) {
            case .approved:
                record.note(.approved)
                return .passed(VerificationPassed(verificationToken: "", expiresIn: 0))
            case .passed(let passed):
                record.note(.approved)
                return .passed(passed)
            case .needsAnotherFactor(let progress):
                return .needsAnotherFactor(progress)
            }
        } catch {
            if case .server(let server)? = error as? LatchClientError, server.code == .wrongCode,
                server.details.field == "number"
            {
                record.note(.wrongNumber)
            }
            throw LatchVerificationEnvironment<Presenter>.failure(from: error)
        }
    }

    func sendVerificationEmailCode(verificationID: String) async throws {
        try await inner.sendVerificationEmailCode(verificationID: verificationID)
    }

    func requestBiometricPermission() async -> Bool { await inner.requestBiometricPermission() }

    func evaluateBiometrics(_ prompt: VerificationBiometricPrompt) async -> BiometricOutcome {
        await inner.evaluateBiometrics(prompt)
    }

    func unlockBiometricsWithPasscode(_ prompt: VerificationPasscodePrompt) async -> Bool {
        await inner.unlockBiometricsWithPasscode(prompt)
    }

    func cancelBiometricEvaluation() async { await inner.cancelBiometricEvaluation() }

    func sign(_ message: SignedMessage, credentialID: String) async throws -> String {
        try await inner.sign(message, credentialID: credentialID)
    }

    func appAttestAssertion(over message: SignedMessage, credentialID: String) async -> String? {
        await inner.appAttestAssertion(over: message, credentialID: credentialID)
    }

    /// After a wrong number the verification is over on the server: instead of the page's "start again",
    /// the page is closed (the approval screen says what happened).
    func present(_ screen: VerificationScreen) async {
        guard record.outcome != .wrongNumber else {
            inner.responder.send(.tapped(.cancel))
            return
        }
        await inner.present(screen)
    }

    func dismiss(announcing announcement: VerificationAnnouncement) async {
        await inner.dismiss(announcing: announcement)
    }

    func openSettings() async { await inner.openSettings() }

    func sleep(seconds: Int) async throws { try await inner.sleep(seconds: seconds) }

    func hasPasskey(for options: PublicKeyCredentialRequestOptionsJSON) async -> Bool {
        await inner.hasPasskey(for: options)
    }

    func passkeyAssertion(_ options: PublicKeyCredentialRequestOptionsJSON) async -> PasskeyAssertionOutcome {
        await inner.passkeyAssertion(options)
    }
}

/// What the server said of the phone's attempts, as the page ran.
final class PhoneApprovalRecord: @unchecked Sendable {
    // @unchecked Sendable: `value` is read and written only under `lock`.
    enum Outcome: Sendable, Equatable {
        case approved
        case wrongNumber
    }

    private let lock = NSLock()
    private var value: Outcome?

    var outcome: Outcome? { lock.withLock { value } }

    func note(_ outcome: Outcome) { lock.withLock { value = outcome } }
}
