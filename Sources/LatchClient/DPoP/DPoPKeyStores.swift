/// The DPoP key store for the platform the SDK runs on.
public enum DPoPKeyStores {
    /// The Secure Enclave where there is one (the key cannot leave it, and needs no biometric match: it
    /// signs every request); otherwise a software key kept in `vault` (Linux, the CLI, the Simulator), also
    /// where the app may not use the enclave's Keychain at all (``FallbackDPoPKeyStore``).
    ///
    ///     let client = LatchClient(serverURL: url, vault: vault, dpopKeys: DPoPKeyStores.platformDefault(vault: vault))
    public static func platformDefault(vault: any TokenVault) -> any DPoPKeyStore {
        #if canImport(Security) && canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS))
            if SecureEnclaveDPoPKeyStore.isAvailable {
                return FallbackDPoPKeyStore(
                    preferred: SecureEnclaveDPoPKeyStore(), fallback: SoftwareDPoPKeyStore(vault: vault))
            }
        #endif
        return SoftwareDPoPKeyStore(vault: vault)
    }

    /// `LatchClient(dpopKeys:)`'s default (issue 41 §2): ``platformDefault(vault:)`` of the vault the client
    /// is given, chosen when the client is made, so every session is bound to a key unless the app opts out
    /// with `dpopKeys: nil` (`.none`: bearer sessions).
    ///
    ///     let bound = LatchClient(serverURL: url, vault: KeychainVault())                  // Secure Enclave key
    ///     let bearer = LatchClient(serverURL: url, vault: KeychainVault(), dpopKeys: .none) // opted out
    public static let platform: any DPoPKeyStore = PlatformDPoPKeyStore()
}

/// What ``DPoPKeyStores/platform`` is: a stand-in `LatchClient` replaces with
/// ``DPoPKeyStores/platformDefault(vault:)`` of its vault. On its own it has no vault to keep a key in,
/// so it holds none (`DeviceKeyError.unavailable`).
struct PlatformDPoPKeyStore: DPoPKeyStore {
    func key() async throws -> any DPoPKey { throw DeviceKeyError.unavailable }
    func discard() async throws {}

    /// `keys` as `LatchClient` uses them: the platform's store for `vault` in place of the stand-in.
    static func resolve(_ keys: (any DPoPKeyStore)?, vault: any TokenVault) -> (any DPoPKeyStore)? {
        keys is PlatformDPoPKeyStore ? DPoPKeyStores.platformDefault(vault: vault) : keys
    }
}
