#if canImport(Security) && canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS))
    import CryptoKit
    import Foundation
    import Security

    /// The session's DPoP key in the Secure Enclave (issue 31 §3): P-256, made inside the enclave
    /// (`kSecAttrTokenIDSecureEnclave`), not exportable, usable while the device is unlocked and only on this
    /// device (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly` + `.privateKeyUsage`; no biometric match: it
    /// signs every request). Signatures by `SecKeyCreateSignature` (`.ecdsaSignatureMessageX962SHA256`,
    /// DER), turned into JWS's `r ‖ s`.
    public struct SecureEnclaveDPoPKeyStore: DPoPKeyStore {
        public static var isAvailable: Bool { SecureEnclave.isAvailable }

        /// The Keychain application tag of the key.
        public let tag: String

        public init(tag: String = "latch.dpop-key") { self.tag = tag }

        public func key() async throws -> any DPoPKey {
            if let existing = try copyPrivateKey() { return try SecureEnclaveDPoPKey(privateKey: existing) }
            var error: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage], &error)
            else { throw DeviceKeyError.platform(code: Self.code(of: error)) }
            let attributes: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecUseDataProtectionKeychain as String: true,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true,
                    kSecAttrApplicationTag as String: Data(tag.utf8),
                    kSecAttrAccessControl as String: access
                ] as [String: Any]
            ]
            guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
                throw DeviceKeyError.platform(code: Self.code(of: error))
            }
            return try SecureEnclaveDPoPKey(privateKey: privateKey)
        }

        public func discard() async throws {
            let status = SecItemDelete(
                [
                    kSecClass as String: kSecClassKey,
                    kSecAttrApplicationTag as String: Data(tag.utf8),
                    kSecUseDataProtectionKeychain as String: true
                ] as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw DeviceKeyError.platform(code: Int(status))
            }
        }

        private func copyPrivateKey() throws -> SecKey? {
            let query: [String: Any] = [
                kSecClass as String: kSecClassKey,
                kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrApplicationTag as String: Data(tag.utf8),
                kSecUseDataProtectionKeychain as String: true,
                kSecReturnRef as String: true
            ]
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            switch status {
            case errSecSuccess: return (item as! SecKey) // kSecReturnRef of a kSecClassKey item is a SecKey.
            case errSecItemNotFound: return nil
            default: throw DeviceKeyError.platform(code: Int(status))
            }
        }

        private static func code(of error: Unmanaged<CFError>?) -> Int {
            error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? -1
        }
    }

    /// A Secure Enclave key reference as a `DPoPKey`.
    struct SecureEnclaveDPoPKey: DPoPKey, @unchecked Sendable {
        // @unchecked Sendable: a SecKey is immutable and thread-safe.
        let privateKey: SecKey
        let publicCoordinates: (x: Data, y: Data)

        init(privateKey: SecKey) throws {
            var error: Unmanaged<CFError>?
            guard let publicKey = SecKeyCopyPublicKey(privateKey),
                let point = SecKeyCopyExternalRepresentation(publicKey, &error) as Data?, point.count == 65
            else { throw DeviceKeyError.unusable }
            self.privateKey = privateKey
            self.publicCoordinates = (point.subdata(in: 1..<33), point.subdata(in: 33..<65))
        }

        func sign(_ data: Data) async throws -> Data {
            var error: Unmanaged<CFError>?
            guard
                let der = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, data as CFData, &error)
                    as Data?
            else { throw DeviceKeyError.unusable }
            return try P256.Signing.ECDSASignature(derRepresentation: der).rawRepresentation
        }
    }
#endif
