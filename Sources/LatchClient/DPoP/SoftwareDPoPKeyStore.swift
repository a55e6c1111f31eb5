import Crypto
import Foundation

/// A DPoP key made by swift-crypto, its 32-byte private scalar kept in the `TokenVault` (a `0600` file on
/// Linux and in the CLI, memory in tests). As safe as the vault; the Secure Enclave's key cannot be copied.
///
///     let keys = SoftwareDPoPKeyStore(vault: FileVault(directory: home))
///     let client = LatchClient(serverURL: url, vault: vault, dpopKeys: keys)
public struct SoftwareDPoPKeyStore: DPoPKeyStore {
    public static let defaultVaultKey = "dpop-key"

    public let vault: any TokenVault
    public let vaultKey: String

    public init(vault: any TokenVault, vaultKey: String = SoftwareDPoPKeyStore.defaultVaultKey) {
        self.vault = vault
        self.vaultKey = vaultKey
    }

    public func key() async throws -> any DPoPKey {
        switch await vault.read(vaultKey) {
        case .found(let data):
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: data) else { throw DeviceKeyError.unusable }
            return SoftwareDPoPKey(key: key)
        case .notFound:
            let key = P256.Signing.PrivateKey()
            try await vault.write(key.rawRepresentation, for: vaultKey)
            return SoftwareDPoPKey(key: key)
        case .unavailable:
            throw DeviceKeyError.unavailable
        }
    }

    public func discard() async throws {
        try await BiometricEnrollmentStore.deleteIfPresent(vaultKey, in: vault)
    }
}

/// A swift-crypto P-256 key as a `DPoPKey`.
struct SoftwareDPoPKey: DPoPKey {
    let key: P256.Signing.PrivateKey

    var publicCoordinates: (x: Data, y: Data) {
        let point = key.publicKey.x963Representation.dropFirst()
        return (Data(point.prefix(32)), Data(point.suffix(32)))
    }

    func sign(_ data: Data) async throws -> Data {
        try key.signature(for: data).rawRepresentation
    }
}
