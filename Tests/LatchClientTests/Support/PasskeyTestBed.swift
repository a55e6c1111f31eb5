import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes a device for the passkey tests: a `LatchClient` over a `PasskeyServer`, its vault and a software passkey authenticator.
struct PasskeyTestBed {
    let server: PasskeyServer
    let vault = InMemoryVault()
    let client: LatchClient
    let passkeys: SoftwarePasskeyAuthenticator

    init(server: PasskeyServer = PasskeyServer(), attestation: SoftwareAuthenticator.AttestationFormat = .none) {
        self.server = server
        client = LatchClient(serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: server)
        passkeys = SoftwarePasskeyAuthenticator(vault: vault, attestation: attestation, origin: { "https://\($0)" })
    }

    func signIn() async throws {
        try await client.signIn(email: "alice@example.com", password: SessionFakeServer.password)
    }
}
