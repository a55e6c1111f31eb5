/// Where a device key's private half lives (issue 11 §2, software key fallback): the client says so when
/// it binds the key, the server keeps it and lists it, so that a user and an administrator can see
/// which devices sign with a weaker, software-held key.
public enum DeviceKeyProtection: String, Codable, Sendable, CaseIterable {
    /// Created in and never leaving the Secure Enclave; usable only after a biometric match.
    case secureEnclave = "secure_enclave"
    /// A software P-256 key in the Keychain or a file (no Secure Enclave: the Simulator, older Macs,
    /// Linux): as safe as that store.
    case software
    /// Bound before the server recorded protection, or by a client that did not say. Never sent by a
    /// client.
    case unknown

    /// The values a client may send when binding.
    public static let bindable: [DeviceKeyProtection] = [.secureEnclave, .software]
}
