import Foundation
import LatchCore
import LatchTestSupport
import Testing

@testable import LatchClient

/// A client of `server` with an in-memory vault and a hand-moved clock.
struct SessionHarness {
    let server = SessionFakeServer()
    let vault: InMemoryVault
    let clock = TestClock()
    let client: LatchClient

    init(vault: InMemoryVault = InMemoryVault(), serverURL: URL = URL(string: "https://auth.example.com")!) {
        self.vault = vault
        client = LatchClient(serverURL: serverURL, vault: vault, transport: server, clock: clock.read)
    }

    /// Signs Alice (or `user`) in with tokens that live `expiresIn` seconds.
    @discardableResult
    func signIn(_ user: UserInfo = SessionFakeServer.alice, expiresIn: Int = 7200) async throws -> TokenResponse {
        let tokens = await server.issueTokens(for: user, expiresIn: expiresIn)
        try await client.signIn(with: tokens)
        return tokens
    }

    /// The session stored in the vault, if any.
    func storedSession() async -> StoredSession? {
        guard case .found(let data) = await vault.read("session") else { return nil }
        return StoredSession.decode(data)
    }

    var ordersURL: URL { URL(string: "https://auth.example.com/orders")! }
    var serverURL: URL { client.api.serverURL }
}
