import LatchCore

/// What the biometric offer after sign-in needs (seed 004 §9.2, issue 23 §1);
/// `LatchSecuritySettingsService` provides it on a real `LatchClient`, tests use a fake.
public protocol BiometricOfferService: Sendable {
    /// The sensor to offer now, or `nil` (unsupported, already bound, or answered before).
    func biometricOffer() async -> BiometryKind?
    /// Remembers that the offer was answered, so that it does not come again on this device.
    func answerBiometricOffer() async
    /// Runs the binding flow: the biometric prompt, the device key, its registration.
    func enableBiometricSignIn(verificationToken: String?) async throws -> BiometricEnableResult
}

extension LatchSecuritySettingsService: BiometricOfferService {
    public func biometricOffer() async -> BiometryKind? {
        await client.biometricOffer(authenticator: authenticator)
    }

    public func answerBiometricOffer() async {
        await client.answerBiometricOffer()
    }
}
