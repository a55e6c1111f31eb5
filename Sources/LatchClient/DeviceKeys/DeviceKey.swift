/// A newly created device key, as the server is told about it.
public struct DeviceKey: Sendable, Hashable {
    /// base64url (no padding) of the 65-byte X9.63 uncompressed point — the API's `public_key`.
    public let publicKey: String
    /// Where the private key lives: the vault item or the Keychain application tag.
    public let reference: String
    /// What protects the private key: the Secure Enclave, or software (the fallback where there is no
    /// Secure Enclave). Sent when binding, so that the server lists it (issue 11 §2).
    public let protection: DeviceKeyProtection

    public init(publicKey: String, reference: String, protection: DeviceKeyProtection) {
        self.publicKey = publicKey
        self.reference = reference
        self.protection = protection
    }
}
