import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes the device for biometric sign-in on Linux: a simulated sensor, a software key, a vault and a fake server.
struct BiometricTestBed {
    let vault: TestVault
    let sensor: SimulatedAuthenticator
    let keys: SoftwareDeviceKeyStore
    let store: BiometricEnrollmentStore
    let server: FakeCredentialServer
    let enrollment: BiometricEnrollment

    static let session = Data("the session's tokens".utf8)

    init(kind: BiometryKind = .faceID) {
        vault = TestVault(items: ["session": Self.session])
        sensor = SimulatedAuthenticator(kind: kind)
        keys = SoftwareDeviceKeyStore(vault: vault)
        store = BiometricEnrollmentStore(vault: vault)
        server = FakeCredentialServer()
        enrollment = BiometricEnrollment(authenticator: sensor, keys: keys, store: store, api: server)
    }

    /// Enables biometric login as a signed-in user would.
    func enabled() async throws -> BiometricBinding {
        await sensor.enqueue(.match)
        guard case .enabled(let binding) = try await enrollment.enable(reason: "Turn on", deviceName: "Test phone")
        else {
            throw DeviceKeyError.noKey
        }
        return binding
    }

    @MainActor func driver(language: LatchLanguage = .en) -> BiometricSignInDriver {
        BiometricSignInDriver(authenticator: sensor, keys: keys, enrollment: store, api: server, language: language)
    }
}
