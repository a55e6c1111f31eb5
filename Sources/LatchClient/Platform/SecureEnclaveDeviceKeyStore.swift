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

        public init(
            tag: String = "latch.device-key", handoff: LocalAuthenticationHandoff? = nil,
            signingReason: String = "Sign in"
        ) {
            self.tag = tag
            self.handoff = handoff
            self.signingReason = signingReason
        }

        /// Creates the new key under a provisional tag first; only once it exists is the old key deleted and
        /// the new one given the store's tag. A failure before that leaves the old key as it was.
        public func createKey() async throws -> DeviceKey {
            let pendingTag = tag + ".pending"
            // A leftover of a replacement that was interrupted.
            try Self.delete(tag: pendingTag)
            var error: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                    [.privateKeyUsage, .biometryCurrentSet], &error)
            else { throw Self.failure(error) }
            let attributes: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecUseDataProtectionKeychain as String: true,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true,
                    kSecAttrApplicationTag as String: Data(pendingTag.utf8),
                    kSecAttrAccessControl as String: access
                ] as [String: Any]
            ]
            guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
                throw Self.failure(error)
            }
            let publicKey = try Self.publicKey(of: privateKey)
            // The new key exists: now the old one goes, and the new one takes the store's tag.
            try Self.delete(tag: tag)
            let renamed = SecItemUpdate(
                Self.itemQuery(tag: pendingTag) as CFDictionary,
                [kSecAttrApplicationTag as String: Data(tag.utf8)] as CFDictionary)
            guard renamed == errSecSuccess else { throw DeviceKeyError(securityStatus: Int(renamed)) }
            return DeviceKey(publicKey: publicKey, reference: tag, protection: .secureEnclave)
        }

        public func publicKey() async throws -> String? {
            // Reading the key's reference needs no biometric match; only using it does.
            guard let privateKey = try copyPrivateKey(context: nil) else { return nil }
            return try Self.publicKey(of: privateKey)
        }

        /// Signs on `signingQueue`, never on the cooperative thread pool: `SecKeyCreateSignature` blocks for
        /// as long as the enclave's own prompt is up (without a handed-over context), which would hold one
        /// of the pool's few threads. The context (handed over after a match, or a prompting one) signs this
        /// one message and is invalidated right after: one match authorises one signature.
        public func sign(_ message: SignedMessage) async throws -> String {
            let context = UncheckedContext(value: handoff?.take() ?? Self.promptingContext(reason: signingReason))
            let data = message.data
            return try await withCheckedThrowingContinuation { continuation in
                Self.signingQueue.async {
                    defer { context.value.invalidate() }
                    continuation.resume(with: Result { try self.signBlocking(data, context: context.value) })
                }
            }
        }

        /// The serial queue the enclave signs on.
        private static let signingQueue = DispatchQueue(label: "latch.secure-enclave.signing", qos: .userInitiated)

        /// An `LAContext` handed to `signingQueue`: created before, used there only, invalidated there.
        private struct UncheckedContext: @unchecked Sendable {
            let value: LAContext
        }

        private func signBlocking(_ data: Data, context: LAContext) throws -> String {
            guard let privateKey = try copyPrivateKey(context: context) else { throw DeviceKeyError.noKey }
            var error: Unmanaged<CFError>?
            guard
                let signature = SecKeyCreateSignature(
                    privateKey, .ecdsaSignatureMessageX962SHA256, data as CFData, &error) as Data?
            else { throw Self.failure(error) }
            return Base64URL.encode(signature)
        }

        public func deleteKey() async throws {
            try Self.delete(tag: tag)
        }

        /// The key items under `tag`.
        private static func itemQuery(tag: String) -> [String: Any] {
            [
                kSecClass as String: kSecClassKey,
                kSecAttrApplicationTag as String: Data(tag.utf8),
                kSecUseDataProtectionKeychain as String: true
            ]
        }

        private static func delete(tag: String) throws {
            let status = SecItemDelete(itemQuery(tag: tag) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw DeviceKeyError.platform(code: Int(status))
            }
        }

        private func copyPrivateKey(context: LAContext?) throws -> SecKey? {
            var query: [String: Any] = [
                kSecClass as String: kSecClassKey,
                kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrApplicationTag as String: Data(tag.utf8),
                kSecUseDataProtectionKeychain as String: true,
                kSecReturnRef as String: true
            ]
            if let context { query[kSecUseAuthenticationContext as String] = context }
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            switch status {
            case errSecSuccess: return (item as! SecKey) // kSecReturnRef of a kSecClassKey item is a SecKey.
            case errSecItemNotFound: return nil
            default: throw DeviceKeyError(securityStatus: Int(status))
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
