import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes a key the enclave refuses (enrollment changed under `.biometryCurrentSet`): signing fails, the rest is software.
struct InvalidatedKeyStore: DeviceKeyStore {
    let inner: SoftwareDeviceKeyStore
    func createKey() async throws -> DeviceKey { try await inner.createKey() }
    func publicKey() async throws -> String? { try await inner.publicKey() }
    func sign(_ message: SignedMessage) async throws -> String {
        throw DeviceKeyError(securityStatus: DeviceKeyError.authFailedStatus)
    }
    func deleteKey() async throws { try await inner.deleteKey() }
}
