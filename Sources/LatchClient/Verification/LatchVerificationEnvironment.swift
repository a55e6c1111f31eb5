import Foundation
import LatchCore

/// The SDK's `VerificationDriverEnvironment`: the server through a signed-in `LatchClient`, the
/// biometric sensor, the device key, and a `VerificationPresenter` for the page.
/// `LatchClient.verify(_:authenticator:keys:presenter:language:)` builds one; use it directly only to
/// drive a `VerificationDriver` yourself.
public struct LatchVerificationEnvironment<Presenter: VerificationPresenter>: VerificationDriverEnvironment {
    public let client: LatchClient
    public let authenticator: any BiometricAuthenticator
    public let keys: any DeviceKeyStore
    public let presenter: Presenter
    /// The sensor the page uses; Face ID's `-6` means the permission is off.
    public let sensor: BiometryKind
    /// The device's passkeys, when the app offers passkey verification (issue 13).
    public let passkeys: (any PasskeyAuthenticator)?
    let responder: VerificationInputRelay

    init(
        client: LatchClient, authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore,
        presenter: Presenter, sensor: BiometryKind, passkeys: (any PasskeyAuthenticator)? = nil,
        responder: VerificationInputRelay
    ) {
        self.passkeys = passkeys
        self.client = client
        self.authenticator = authenticator
        self.keys = keys
        self.presenter = presenter
        self.sensor = sensor
        self.responder = responder
    }

    /// Opens the verification. A security hold's answer (issue 19 §2) is completed with the hold's start
    /// from `GET /v1/me/security` when that answers, so that the page can name the hold's length.
    public func startVerification(_ request: VerificationRequest) async throws -> VerificationStarted {
        do {
            return try await client.startVerification(request)
        } catch {
            guard case .securityHold(let hold) = Self.failure(from: error) else { throw Self.failure(from: error) }
            guard let status = try? await client.accountSecurity() else {
                throw VerificationServerFailure.securityHold(hold)
            }
            throw VerificationServerFailure.securityHold(hold.started(from: status))
        }
    }

    public func submitAttempt(_ attempt: VerificationAttempt, verificationID: String) async throws -> VerificationPassed
    {
        do {
            return try await client.submitAttempt(attempt, verificationID: verificationID)
        } catch {
            throw Self.failure(from: error)
        }
    }

    /// One answer; a policy asking for two factors (issue 30) answers the first pass with the progress.
    public func submitAttemptForResult(_ attempt: VerificationAttempt, verificationID: String) async throws
        -> VerificationAttemptResult
    {
        do {
            return try await client.submitAttemptForResult(attempt, verificationID: verificationID)
        } catch {
            throw Self.failure(from: error)
        }
    }

    /// Mails a code for the verification (issue 30); too soon throws `.rateLimited(retryAfter:)`.
    public func sendVerificationEmailCode(verificationID: String) async throws {
        do {
            try await client.sendVerificationEmailCode(verificationID: verificationID)
        } catch {
            throw Self.failure(from: error)
        }
    }

    /// On iOS the permission alert is part of the first Face ID prompt: this answers yes and lets the
    /// prompt report a refusal as `.permissionDenied`.
    public func requestBiometricPermission() async -> Bool {
        true
    }

    public func evaluateBiometrics(_ prompt: VerificationBiometricPrompt) async -> BiometricOutcome {
        let result = await authenticator.evaluate(
            reason: prompt.localizedReason, fallbackTitle: prompt.fallbackTitle, cancelTitle: prompt.cancelTitle)
        let outcome = BiometricOutcome(result, sensor: sensor)
        if outcome == .success, sensor == .faceID {
            await FaceIDPermissionRecord(vault: client.vault).remember()
        }
        return outcome
    }

    public func unlockBiometricsWithPasscode(_ prompt: VerificationPasscodePrompt) async -> Bool {
        await authenticator.unlockWithPasscode(reason: prompt.localizedReason, cancelTitle: prompt.cancelTitle)
            == .success
    }

    /// Takes the system prompt down; the driver drops its result.
    public func cancelBiometricEvaluation() async {
        await authenticator.cancelEvaluation()
    }

    /// Signs with the device key. A key the enclave no longer accepts (`DeviceKeyError.unusable`: the
    /// enrolled faces or fingers changed) turns biometric sign-in off on this device, as sign-in does, so
    /// the next verification does not offer it again; the page falls back to the other methods.
    public func sign(_ message: SignedMessage, credentialID: String) async throws -> String {
        do {
            return try await keys.sign(message)
        } catch DeviceKeyError.unusable {
            try? await BiometricEnrollmentStore(vault: client.vault).forget()
            try? await keys.deleteKey()
            throw DeviceKeyError.unusable
        }
    }

    /// The client's App Attest assertion over `message` for `credentialID` (issue 31 §3), if it attests.
    public func appAttestAssertion(over message: SignedMessage, credentialID: String) async -> String? {
        await client.appAttestAssertion(over: message, credentialID: credentialID)
    }

    public func hasPasskey(for options: PublicKeyCredentialRequestOptionsJSON) async -> Bool {
        await passkeys?.hasPasskey(for: options) ?? false
    }

    public func passkeyAssertion(_ options: PublicKeyCredentialRequestOptionsJSON) async -> PasskeyAssertionOutcome {
        guard let passkeys else { return .failed }
        do {
            return .asserted(try await passkeys.assertion(options))
        } catch PasskeyAuthenticatorError.cancelled {
            return .cancelled
        } catch {
            return .failed
        }
    }

    public func present(_ screen: VerificationScreen) async {
        await presenter.present(screen, respond: VerificationResponder(responder.send))
    }

    public func dismiss(announcing announcement: VerificationAnnouncement) async {
        await presenter.dismiss(announcing: announcement)
    }

    public func openSettings() async {
        await presenter.openSettings()
    }

    public func sleep(seconds: Int) async throws {
        try await Task.sleep(for: .seconds(seconds))
    }

    /// A client error as the flow reads it: the server's answers by code, the end of the session as
    /// AUTH_004, everything without an answer as the network.
    static func failure(from error: any Error) -> VerificationServerFailure {
        switch error as? LatchClientError {
        case .server(let server)?, .accountFrozen(let server)?:
            return VerificationServerFailure(server)
        case .notSignedIn?:
            return .sessionExpired
        case .unexpected(let status)?:
            return .other(code: "HTTP_\(status)")
        case .vaultUnavailable?:
            return .other(code: "VAULT_UNAVAILABLE")
        case .signInVerificationRequired?:
            return .other(code: LatchErrorCode.verificationRequired.rawValue)
        case .network?, nil:
            return .network
        }
    }
}

/// Passes the page's inputs to the driver, which exists only after its environment.
final class VerificationInputRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var target: (@Sendable (VerificationInput) -> Void)?

    func connect(_ target: @escaping @Sendable (VerificationInput) -> Void) {
        lock.withLock { self.target = target }
    }

    @Sendable func send(_ input: VerificationInput) {
        let target = lock.withLock { self.target }
        target?(input)
    }
}
