import LatchCore

/// Everything `VerificationDriver` needs from the outside world: the server, the biometric sensor,
/// the device key, the page, and time. Apps get one from the SDK; tests pass a fake.
///
///     struct AppVerificationEnvironment: VerificationDriverEnvironment {
///         let api: APIClient, authenticator: some BiometricAuthenticator, keys: some DeviceKeyStore
///         @MainActor let model: VerificationSheetModel
///
///         func startVerification(_ request: VerificationRequest) async throws -> VerificationStarted {
///             try await api.post("/v1/verifications", request)          // throw VerificationServerFailure on errors
///         }
///         func evaluateBiometrics(_ prompt: VerificationBiometricPrompt) async -> BiometricOutcome {
///             await authenticator.evaluate(prompt)                         // a fresh LAContext, LAError mapped
///         }
///         func present(_ screen: VerificationScreen) async { await model.show(screen) }
///         // …
///     }
public protocol VerificationDriverEnvironment: Sendable {
    /// `POST /v1/verifications`. Throw `VerificationServerFailure` for error answers; any other
    /// error counts as a network failure.
    func startVerification(_ request: VerificationRequest) async throws -> VerificationStarted

    /// `POST /v1/verifications/{id}/attempts`. Throw `VerificationServerFailure` for error answers
    /// (AUTH_003 with `attempts_remaining`, AUTH_002 with `locked_until` …); any other error counts
    /// as a network failure.
    func submitAttempt(_ attempt: VerificationAttempt, verificationID: String) async throws -> VerificationPassed

    /// `POST /v1/verifications/{id}/attempts` when the policy may ask for two factors (issue 30): the proof,
    /// or the progress when another factor is still needed. Errors as for `submitAttempt`. Default: the
    /// answer of `submitAttempt`, as `.passed` (an environment that implements only `submitAttempt` sees a
    /// progress answer as a network failure, since it cannot decode it).
    func submitAttemptForResult(_ attempt: VerificationAttempt, verificationID: String) async throws
        -> VerificationAttemptResult

    /// `POST /v1/verifications/{id}/email-code` (issue 30): mails a code for this verification. Throw
    /// `VerificationServerFailure` for error answers (`.rateLimited(retryAfter:)` within a minute of the
    /// last one). Default: throws `.other(code: "EMAIL_CODE_UNSUPPORTED")`.
    func sendVerificationEmailCode(verificationID: String) async throws

    /// Asks for the Face ID permission after the explanation (A6) and says whether it was granted.
    /// On iOS the permission alert is part of the first evaluation: an adapter may answer `true`
    /// here and let `evaluateBiometrics` report `.permissionDenied`.
    func requestBiometricPermission() async -> Bool

    /// Runs the system biometric prompt with a fresh context and maps its result (B2).
    func evaluateBiometrics(_ prompt: VerificationBiometricPrompt) async -> BiometricOutcome

    /// Runs the device-passcode prompt after a lockout (`deviceOwnerAuthentication`, B2 −8) and says
    /// whether the passcode was entered (biometry is then unlocked).
    func unlockBiometricsWithPasscode(_ prompt: VerificationPasscodePrompt) async -> Bool

    /// Cancels the running prompt (`LAContext.invalidate()`); its result is dropped by the driver.
    func cancelBiometricEvaluation() async

    /// Signs `message` with the device key `credentialID`, using the context that just passed
    /// `evaluateBiometrics` so the user is not asked twice. Returns base64url DER (the contract's
    /// signature format). Throws when the key is gone or refuses.
    func sign(_ message: SignedMessage, credentialID: String) async throws -> String

    /// App Attest's assertion (base64url) over `message` by the App Attest key that vouches for device key
    /// `credentialID` (issue 31 §3), sent beside the signature; nil without App Attest. Default: nil.
    func appAttestAssertion(over message: SignedMessage, credentialID: String) async -> String?

    /// Shows `screen` (and announces `screen.announcement`).
    func present(_ screen: VerificationScreen) async

    /// Closes the page and announces `announcement`.
    func dismiss(announcing announcement: VerificationAnnouncement) async

    /// Opens the app's page in the system Settings.
    func openSettings() async

    /// Waits `seconds` (a test clock may return at once); throws when cancelled.
    func sleep(seconds: Int) async throws

    /// Whether this device has a passkey that can answer `options` (the server's passkey offer);
    /// the page offers passkey only then. Default: no.
    func hasPasskey(for options: PublicKeyCredentialRequestOptionsJSON) async -> Bool

    /// Asks the device's passkey for an assertion over `options` (the system sheet) and maps how it
    /// ended. Default: `.failed`.
    func passkeyAssertion(_ options: PublicKeyCredentialRequestOptionsJSON) async -> PasskeyAssertionOutcome
}

extension VerificationDriverEnvironment {
    /// The answer of `submitAttempt`, which can only be a pass.
    public func submitAttemptForResult(_ attempt: VerificationAttempt, verificationID: String) async throws
        -> VerificationAttemptResult
    {
        .passed(try await submitAttempt(attempt, verificationID: verificationID))
    }

    /// No emailed codes unless the environment says otherwise.
    public func sendVerificationEmailCode(verificationID: String) async throws {
        throw VerificationServerFailure.other(code: "EMAIL_CODE_UNSUPPORTED")
    }

    /// No App Attest unless the environment says otherwise.
    public func appAttestAssertion(over message: SignedMessage, credentialID: String) async -> String? { nil }

    /// No passkeys unless the environment says otherwise.
    public func hasPasskey(for options: PublicKeyCredentialRequestOptionsJSON) async -> Bool { false }

    /// No passkeys unless the environment says otherwise.
    public func passkeyAssertion(_ options: PublicKeyCredentialRequestOptionsJSON) async -> PasskeyAssertionOutcome {
        .failed
    }
}
