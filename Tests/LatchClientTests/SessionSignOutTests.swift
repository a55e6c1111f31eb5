import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// C9: sign-out calls the server, clears the session, keeps what the app keeps, offers a hook, and
/// announces `.signedOut` once.
@Suite("Sign-out (C9)")
struct SessionSignOutTests {
    @Test func C9_signOutKeepsUnrelatedVaultItemsAndCallsTheHook() async throws {
        // Set-up: app settings and a device key in the vault beside the session.
        let vault = InMemoryVault(items: ["settings": Data("dark".utf8), "device-key.k1": Data([1, 2, 3])])
        let harness = SessionHarness(vault: vault)
        let tokens = try await harness.signIn()
        let installationID = try await harness.client.installationID()
        let hookCalls = SessionTestBox(0)

        // Act
        await harness.client.signOut { hookCalls.withLock { $0 += 1 } }

        // Check
        #expect(await vault.keys == ["device-key.k1", "installation-id", "settings"])
        #expect(try await harness.client.installationID() == installationID)
        #expect(hookCalls.withLock { $0 } == 1)
        let logout = try #require(await harness.server.requests(to: "/v1/logout").first)
        #expect(SessionFakeServer.bearer(of: logout) == tokens.accessToken)
        #expect(harness.client.currentState == .signedOut)
    }

    @Test func C9_signOutAnnouncesSignedOutOnce() async throws {
        let harness = SessionHarness()
        try await harness.signIn()
        var iterator = harness.client.state.makeAsyncIterator()
        #expect(await iterator.next() == .signedIn(SessionFakeServer.alice))

        await harness.client.signOut()
        await harness.client.signOut()
        try await harness.signIn(SessionFakeServer.bob)

        #expect(await iterator.next() == .signedOut)
        #expect(await iterator.next() == .signedIn(SessionFakeServer.bob))
    }

    @Test func C9_signOutOfflineStillSignsOut() async throws {
        let harness = SessionHarness()
        try await harness.signIn()
        await harness.server.set(logoutFailsOffline: true)

        await harness.client.signOut()

        #expect(harness.client.currentState == .signedOut)
        #expect(await harness.vault.read("session") == .notFound)
        #expect(await harness.server.count("POST", "/v1/logout") == 1)
    }

    @Test func C9_signOutWithARefusedTokenRefreshesToLogOut() async throws {
        // The access token is no longer accepted (e.g. expired on the server's clock): sign-out refreshes
        // it once so that the server session really ends.
        let harness = SessionHarness()
        let tokens = try await harness.signIn()
        await harness.server.refuse(accessToken: tokens.accessToken)

        await harness.client.signOut()

        let bearers = await harness.server.requests(to: "/v1/logout").map(SessionFakeServer.bearer(of:))
        #expect(bearers == ["at-1", "at-2"])
        #expect(await harness.vault.read("session") == .notFound)
        #expect(harness.client.currentState == .signedOut)
    }

    @Test func C9_requestsAfterSignOutAreRefused() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        await harness.client.signOut()

        await #expect(throws: LatchClientError.self) { try await harness.client.me() }
        #expect(await harness.server.count("GET", "/v1/me") == 0)
    }

    @Test func C9_hookRunsEvenWhenNobodyWasSignedIn() async throws {
        let harness = SessionHarness()
        let hookCalls = SessionTestBox(0)

        await harness.client.signOut { hookCalls.withLock { $0 += 1 } }

        #expect(hookCalls.withLock { $0 } == 1)
        #expect(await harness.server.requests.isEmpty)
    }

    @Test func C9_signingInAsSomeoneElseEndsThePreviousSessionOnTheServer() async throws {
        let harness = SessionHarness()
        let alice = try await harness.signIn(SessionFakeServer.alice)

        try await harness.signIn(SessionFakeServer.bob)

        let logout = try #require(await harness.server.requests(to: "/v1/logout").first)
        #expect(SessionFakeServer.bearer(of: logout) == alice.accessToken)
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.bob))
    }
}
