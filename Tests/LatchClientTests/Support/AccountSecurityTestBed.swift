import Foundation
import LatchCore
import LatchTestSupport
import Testing

@testable import LatchClient

/// Fakes an app for the issue 19 tests: a `LatchClient` over a `ContainmentServer`, with its vault and clock.
struct AccountSecurityTestBed {
    let server = ContainmentServer()
    let vault = InMemoryVault()
    let clock = TestClock(ContainmentServer.startedAt.addingTimeInterval(1))
    let client: LatchClient

    init() {
        client = LatchClient(
            serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: server,
            acceptLanguage: "zh-Hans", clock: clock.read)
    }

    func signIn() async throws {
        try await client.signIn(with: await server.inner.issueTokens())
    }

    func sentBody(_ key: String) async -> [String: String]? {
        guard let data = await server.bodies[key]?.last ?? nil else { return nil }
        return try? JSONDecoder().decode([String: String].self, from: data)
    }
}
