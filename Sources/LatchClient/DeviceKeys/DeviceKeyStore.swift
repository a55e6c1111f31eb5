import LatchCore

/// The device key of biometric login and verification (A11, B5, B6): a P-256 key pair whose
/// private key never leaves the device. `SecureEnclaveDeviceKeyStore` on Apple hardware (usable only
/// after a biometric match of the current enrollment), `SoftwareDeviceKeyStore` elsewhere;
/// `DeviceKeyStores.platformDefault(vault:)` picks one.
///
/// A store holds one key. Public keys and signatures are in the contract's form (ARCHITECTURE.md,
/// "tokens and signatures"): base64url of the 65-byte X9.63 point, and base64url of the DER ECDSA
/// signature with SHA-256 over the `SignedMessage` bytes.
///
///     let key = try await store.createKey()
///     let id = try await api.bind(publicKey: key.publicKey, deviceName: "iPhone", biometry: .faceID, verificationToken: nil)
///     …
///     let message = try SignedMessage.login(challengeID: challenge.challengeId, challenge: challenge.challenge)
///     let signature = try await store.sign(message)
public protocol DeviceKeyStore: Sendable {
    /// Creates a new key, replacing the store's previous one, and returns its public half.
    func createKey() async throws -> DeviceKey

    /// The public key (base64url X9.63) of the current key, or `nil` when there is none.
    /// Throws `DeviceKeyError.unavailable` when the store cannot be read now.
    func publicKey() async throws -> String?

    /// Signs `message` with the current key: base64url of the DER ECDSA P-256/SHA-256 signature.
    /// Throws `DeviceKeyError.noKey` when there is none.
    func sign(_ message: SignedMessage) async throws -> String

    /// Deletes the current key, if any.
    func deleteKey() async throws
}

extension DeviceKeyStore {
    /// Whether the store holds a key. Throws `DeviceKeyError.unavailable` when it cannot tell now.
    public func hasKey() async throws -> Bool {
        try await publicKey() != nil
    }
}
