import Foundation
import LatchCore

/// Seed 004 §9.2 "首次登录成功后 → 提示启用生物识别" (issue 23 §1): after a successful sign-in, a device that
/// supports Face ID / Touch ID and has none bound is offered biometric sign-in, once. "暂不" / "Not Now"
/// is remembered (vault item `biometric-offer-answered`); "启用" / "Turn On" runs the binding flow.
///
///     if let kind = await client.biometricOffer(authenticator: authenticator) { showOffer(kind) }
public enum BiometricOffer {
    /// The sensor to offer, or `nil`: offered only when the sensor is available, no biometric sign-in is
    /// bound on this device, and the offer was not answered before.
    public static func sensor(availability: BiometricAvailability, isBound: Bool, wasAnswered: Bool)
        -> BiometryKind?
    {
        guard !isBound, !wasAnswered, case .available(let kind) = availability else { return nil }
        return kind
    }
}

/// Whether this device's user answered the biometric offer ("启用" or "暂不"), kept in the vault.
struct BiometricOfferRecord: Sendable {
    static let key = "biometric-offer-answered"
    let vault: any TokenVault

    var wasAnswered: Bool {
        get async { await VaultFlag(key: Self.key, vault: vault).isSet }
    }

    func remember() async {
        await VaultFlag(key: Self.key, vault: vault).set("answered")
    }
}

extension LatchClient {
    /// The sensor to offer after this sign-in (``BiometricOffer``), or `nil` for no offer.
    public func biometricOffer(authenticator: any BiometricAuthenticator) async -> BiometryKind? {
        BiometricOffer.sensor(
            availability: await authenticator.availability(),
            isBound: await BiometricEnrollmentStore(vault: vault).binding() != nil,
            wasAnswered: await BiometricOfferRecord(vault: vault).wasAnswered)
    }

    /// Remembers the offer's answer, so that it is not offered again on this device.
    public func answerBiometricOffer() async {
        await BiometricOfferRecord(vault: vault).remember()
    }
}
