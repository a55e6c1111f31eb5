import Foundation

/// The platform's DPoP key store with a way down (issue 41 §2: DPoP is on by default, so it must not stop
/// a sign-in where the Secure Enclave's Keychain cannot be used at all): `preferred` (the Secure Enclave)
/// unless it answers that this app may never use it, `errSecMissingEntitlement` (−34018: a macOS build
/// without the Keychain entitlement), then `fallback` (a software key in the vault), for good. Any other
/// failure (a locked device: `errSecInteractionNotAllowed`) is thrown as it is, so a session is never bound
/// to a software key the enclave would later replace.
///
///     let keys = FallbackDPoPKeyStore(preferred: SecureEnclaveDPoPKeyStore(), fallback: SoftwareDPoPKeyStore(vault: vault))
public final class FallbackDPoPKeyStore: DPoPKeyStore, @unchecked Sendable {
    // @unchecked Sendable: `fellBack`, the only mutable state, is read and written only under `lock`.
    public let preferred: any DPoPKeyStore
    public let fallback: any DPoPKeyStore
    private let lock = NSLock()
    private var fellBack = false

    /// `errSecMissingEntitlement`: the app may not use the data protection Keychain, the enclave's keys' home.
    static let missingEntitlement = -34018

    public init(preferred: any DPoPKeyStore, fallback: any DPoPKeyStore) {
        self.preferred = preferred
        self.fallback = fallback
    }

    public func key() async throws -> any DPoPKey {
        if lock.withLock({ fellBack }) { return try await fallback.key() }
        do {
            return try await preferred.key()
        } catch DeviceKeyError.platform(code: Self.missingEntitlement) {
            lock.withLock { fellBack = true }
            return try await fallback.key()
        }
    }

    public func discard() async throws {
        try? await preferred.discard()
        try await fallback.discard()
    }
}
