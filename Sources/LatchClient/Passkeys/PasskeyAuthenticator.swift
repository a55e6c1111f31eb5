import LatchCore

/// What makes and uses passkeys on this device: the platform's (``ApplePasskeyAuthenticator`` on
/// Apple platforms, `ASAuthorizationPlatformPublicKeyCredentialProvider`) or the SDK's
/// ``SoftwarePasskeyAuthenticator`` (tests, the CLI).
///
/// It speaks WebAuthn's JSON forms, as latchd sends and takes them: creation options in, a
/// `RegistrationResponseJSON` out; request options in, an `AuthenticationResponseJSON` out.
/// ``LatchClient/registerPasskey(name:authenticator:verificationToken:)`` and
/// ``LatchClient/signInWithPasskey(email:authenticator:device:)`` call it.
public protocol PasskeyAuthenticator: Sendable {
    /// Creates a credential for `options` (`navigator.credentials.create`), user verification included.
    /// Throws ``PasskeyAuthenticatorError``.
    func createCredential(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON

    /// Signs `options.challenge` with one of this device's passkeys for `options.rpId`
    /// (`navigator.credentials.get`): one of `allowCredentials`, or any discoverable passkey when it
    /// is empty. Throws ``PasskeyAuthenticatorError``.
    func assertion(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON

    /// Whether this device can answer `options` with a passkey (the verification page offers passkey
    /// only then).
    func hasPasskey(for options: PublicKeyCredentialRequestOptionsJSON) async -> Bool
}

/// Why a ``PasskeyAuthenticator`` gave no answer.
public enum PasskeyAuthenticatorError: Error, Sendable, Equatable {
    /// The person dismissed the system sheet (or the prompt was cancelled).
    case cancelled
    /// This device has no passkey the options accept.
    case noCredential
    /// One of `excludeCredentials` is already on this device: the passkey exists.
    case alreadyRegistered
    /// The options cannot be used (e.g. a challenge that is not base64url).
    case invalidOptions
    /// Passkeys are not available here (an older OS, no platform authenticator).
    case notSupported
    /// The authenticator failed for another reason (its description).
    case failed(String)
}
