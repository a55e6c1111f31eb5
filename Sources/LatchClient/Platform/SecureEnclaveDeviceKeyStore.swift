#if canImport(Security) && canImport(LocalAuthentication) && canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS))
import CryptoKit
import Foundation
import LatchCore
import LocalAuthentication
import Security

/// The device key in the Secure Enclave (A11, B5): P-256, created inside the enclave and never leaving
/// it, usable only after a biometric match of the faces or fingers enrolled when it was made
/// (`.biometryCurrentSet` + `.privateKeyUsage`; enrolling another face makes it unusable for good).
/// Public key by `SecKeyCopyExternalRepresentation` (65-byte X9.63), signatures by `SecKeyCreateSignature`
/// with `.ecdsaSignatureMessageX962SHA256` (DER) — the contract's formats.
///
/// Where there is no Secure Enclave (the Simulator, older Macs) use `DeviceKeyStores.platformDefault`,
/// which falls back to `SoftwareDeviceKeyStore`.
public struct SecureEnclaveDeviceKeyStore: DeviceKeyStore {
    /// Whether this device has a Secure Enclave.
    public static var isAvailable: Bool { SecureEnclave.isAvailable }

    /// The Keychain application tag of the key.
    public let tag: String
    /// Where a just-matched `LAContext` comes from, so that signing does not prompt twice.
    public let handoff: LocalAuthenticationHandoff?
    /// The reason shown when signing has to prompt by itself.
    public let signingReason: String

    public init(tag: String = "latch.device-key", handoff: LocalAuthenticationHandoff? = nil, signingReason: String = "Sign in") {
        self.tag = tag
        self.handoff = handoff
        self.signingReason = signingReason
    }

    public func createKey() async throws -> DeviceKey {
        try await deleteKey()
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.privateKeyUsage, .biometryCurrentSet], &error)
        else { throw Self.failure(error) }
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecUseDataProtectionKeychain as String: true,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: Data(tag.utf8),
                kSecAttrAccessControl as String: access,
            ] as [String: Any],
        ]
        guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else { throw Self.failure(error) }
        return DeviceKey(publicKey: try Self.publicKey(of: privateKey), reference: tag, protection: .secureEnclave)
    }

    public func publicKey() async throws -> String? {
        // Reading the key's reference needs no biometric match; only using it does.
        guard let privateKey = try copyPrivateKey(context: nil) else { return nil }
        return try Self.publicKey(of: privateKey)
    }

    public func sign(_ message: SignedMessage) async throws -> String {
        let context = handoff?.take() ?? Self.promptingContext(reason: signingReason)
        defer { context.invalidate() }
        guard let privateKey = try copyPrivateKey(context: context) else { throw DeviceKeyError.noKey }
        var error: Unmanaged<CFError>?
        // Blocks while a prompt is up, which happens only without a handed-over context.
        guard let signature = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message.data as CFData, &error) as Data?
        else { throw Self.failure(error) }
        return Base64URL.encode(signature)
    }

    public func deleteKey() async throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: Data(tag.utf8),
            kSecUseDataProtectionKeychain as String: true,
        ]
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw DeviceKeyError.platform(code: Int(status)) }
    }

    private func copyPrivateKey(context: LAContext?) throws -> SecKey? {
        var query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrApplicationTag as String: Data(tag.utf8),
            kSecUseDataProtectionKeychain as String: true,
            kSecReturnRef as String: true,
        ]
        if let context { query[kSecUseAuthenticationContext as String] = context }
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        switch status {
        case errSecSuccess: return (item as! SecKey)  // kSecReturnRef of a kSecClassKey item is a SecKey.
        case errSecItemNotFound: return nil
        case errSecInteractionNotAllowed: throw DeviceKeyError.unavailable
        default: throw DeviceKeyError.platform(code: Int(status))
        }
    }

    private static func promptingContext(reason: String) -> LAContext {
        let context = LAContext()
        context.localizedReason = reason
        return context
    }

    private static func publicKey(of privateKey: SecKey) throws -> String {
        var error: Unmanaged<CFError>?
        guard let publicKey = SecKeyCopyPublicKey(privateKey),
            let x963 = SecKeyCopyExternalRepresentation(publicKey, &error) as Data?
        else { throw failure(error) }
        return Base64URL.encode(x963)
    }

    /// Translates a Security or LocalAuthentication error into `DeviceKeyError`.
    private static func failure(_ error: Unmanaged<CFError>?) -> DeviceKeyError {
        guard let error = error?.takeRetainedValue() else { return .platform(code: Int(errSecInternalError)) }
        let domain = CFErrorGetDomain(error) as String
        let code = CFErrorGetCode(error)
        if domain == LAErrorDomain { return DeviceKeyError(localAuthenticationCode: code) }
        return DeviceKeyError(securityStatus: code)
    }
}
#endif
