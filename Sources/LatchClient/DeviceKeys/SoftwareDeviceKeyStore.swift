import Crypto
import Foundation
import LatchCore

/// A device key made and used by swift-crypto, its 32-byte private scalar kept in the `TokenVault`
/// (a `0600` file on Linux, the Keychain on Apple devices without a Secure Enclave, memory in tests).
///
/// Weaker than the Secure Enclave: the key is as safe as the vault, and using it needs no biometric
/// match by itself — the flows evaluate biometrics before signing. It exists so that Linux (the CLI,
/// tests) and devices without a Secure Enclave run the same contract.
///
///     let store = SoftwareDeviceKeyStore(vault: vault)
///     let key = try await store.createKey()          // key.publicKey: base64url X9.63
///     let signature = try await store.sign(message)   // base64url DER, verifies with DeviceSignature.verify
public struct SoftwareDeviceKeyStore: DeviceKeyStore {
    /// The default vault item.
    public static let defaultVaultKey = "device-key"

    public let vault: any TokenVault
    /// The vault item holding the private key's raw 32-byte representation.
    public let vaultKey: String

    public init(vault: any TokenVault, vaultKey: String = SoftwareDeviceKeyStore.defaultVaultKey) {
        self.vault = vault
        self.vaultKey = vaultKey
    }

    /// Replaces the key in one vault write: the old key stays (and signs) until the new one is stored,
    /// and a failed write leaves it as it was.
    public func createKey() async throws -> DeviceKey {
        let key = P256.Signing.PrivateKey()
        try await vault.write(key.rawRepresentation, for: vaultKey)
        return DeviceKey(
            publicKey: DeviceSignature.publicKeyBase64URL(of: key.publicKey), reference: vaultKey, protection: .software
        )
    }

    public func publicKey() async throws -> String? {
        try await privateKey().map { DeviceSignature.publicKeyBase64URL(of: $0.publicKey) }
    }

    public func sign(_ message: SignedMessage) async throws -> String {
        guard let key = try await privateKey() else { throw DeviceKeyError.noKey }
        return try DeviceSignature.sign(message, with: key)
    }

    public func deleteKey() async throws {
        try await BiometricEnrollmentStore.deleteIfPresent(vaultKey, in: vault)
    }

    /// The stored key, `nil` when none; throws `.unavailable` (vault locked) or `.unusable` (damaged).
    private func privateKey() async throws -> P256.Signing.PrivateKey? {
        switch await vault.read(vaultKey) {
        case .found(let data):
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: data) else { throw DeviceKeyError.unusable }
            return key
        case .notFound:
            return nil
        case .unavailable:
            throw DeviceKeyError.unavailable
        }
    }
}
