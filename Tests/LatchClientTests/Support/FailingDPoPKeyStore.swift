@testable import LatchClient

/// A key store that fails with `code` (the Secure Enclave's store on a Mac without the Keychain entitlement).
struct FailingDPoPKeyStore: DPoPKeyStore {
    let code: Int
    func key() async throws -> any DPoPKey { throw DeviceKeyError.platform(code: code) }
    func discard() async throws { throw DeviceKeyError.platform(code: code) }
}
