#if canImport(Security)
    import Foundation
    import Security

    /// The token vault on Apple platforms: one generic-password Keychain item per key (C5), readable after
    /// the first unlock since boot, never synchronised to iCloud and never migrated to another device
    /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, `kSecAttrSynchronizable` false).
    ///
    /// A Keychain that cannot be read yet (before first unlock: `errSecInteractionNotAllowed`) reads as
    /// `.unavailable`, never as `.notFound`, so a locked device never looks signed out.
    ///
    ///     let vault = KeychainVault(service: "com.example.app.latch", accessGroup: "TEAMID.com.example.shared")
    public struct KeychainVault: TokenVault {
        /// `kSecAttrService` of the items.
        public let service: String
        /// `kSecAttrAccessGroup` to share the items with the app's extensions; nil for the app's default group.
        public let accessGroup: String?

        public init(service: String = "dev.latch.client", accessGroup: String? = nil) {
            self.service = service
            self.accessGroup = accessGroup
        }

        public func read(_ key: String) -> VaultRead {
            var query = itemQuery(key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            switch status {
            case errSecSuccess:
                guard let data = result as? Data else { return .unavailable }
                return .found(data)
            case errSecItemNotFound:
                return .notFound
            default:
                // errSecInteractionNotAllowed (locked) and anything else: unknown now, never "absent".
                return .unavailable
            }
        }

        public func write(_ data: Data, for key: String) throws {
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            ]
            var status = SecItemUpdate(itemQuery(key) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let item = itemQuery(key).merging(attributes) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw error(.write, key: key, status: status) }
        }

        public func delete(_ key: String) throws {
            let status = SecItemDelete(itemQuery(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw error(.delete, key: key, status: status)
            }
        }

        /// The attributes that identify the item of `key`.
        private func itemQuery(_ key: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: key,
                kSecAttrSynchronizable as String: false,
                // The iOS-style Keychain on macOS too, where the accessibility attribute has its meaning.
                kSecUseDataProtectionKeychain as String: true
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        private func error(_ operation: VaultError.Operation, key: String, status: OSStatus) -> VaultError {
            let reason = (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
            return VaultError(operation, key: key, status: status, reason: reason)
        }
    }
#endif
