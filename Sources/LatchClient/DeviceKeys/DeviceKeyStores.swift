/// The device key store for the platform the SDK runs on.
public enum DeviceKeyStores {
    /// The Secure Enclave where there is one; otherwise a software key kept in `vault` (Linux, the
    /// Simulator, Macs without a Secure Enclave).
    ///
    /// Pass the app's `LocalAuthenticationAuthenticator` as `authenticator` so that signing right after
    /// its match needs no second prompt; any other authenticator (or none) changes nothing else.
    ///
    ///     let authenticator = LocalAuthenticationAuthenticator()
    ///     let keys = DeviceKeyStores.platformDefault(vault: vault, authenticator: authenticator)
    public static func platformDefault(vault: any TokenVault, authenticator: (any BiometricAuthenticator)? = nil)
        -> any DeviceKeyStore
    {
        #if canImport(Security) && canImport(LocalAuthentication) && canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS))
            if SecureEnclaveDeviceKeyStore.isAvailable {
                let handoff = (authenticator as? LocalAuthenticationAuthenticator)?.handoff
                return SecureEnclaveDeviceKeyStore(handoff: handoff)
            }
        #endif
        return SoftwareDeviceKeyStore(vault: vault)
    }
}
