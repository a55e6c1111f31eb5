/// The DPoP key store for the platform the SDK runs on.
public enum DPoPKeyStores {
    /// The Secure Enclave where there is one (the key cannot leave it, and needs no biometric match: it
    /// signs every request); otherwise a software key kept in `vault` (Linux, the CLI, the Simulator).
    ///
    ///     let client = LatchClient(serverURL: url, vault: vault, dpopKeys: DPoPKeyStores.platformDefault(vault: vault))
    public static func platformDefault(vault: any TokenVault) -> any DPoPKeyStore {
        #if canImport(Security) && canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS))
            if SecureEnclaveDPoPKeyStore.isAvailable { return SecureEnclaveDPoPKeyStore() }
        #endif
        return SoftwareDPoPKeyStore(vault: vault)
    }
}
