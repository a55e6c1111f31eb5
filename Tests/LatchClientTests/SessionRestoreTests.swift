import Foundation
import LatchCore
import LatchTestSupport
import Testing

@testable import LatchClient

/// C6 "at app launch" and the vault's three answers: found, not found, temporarily unavailable.
@Suite("Session restore at launch (C6)")
struct SessionRestoreTests {
    /// A vault holding a session signed in at `clock`'s time with the given lifetimes.
    func vault(
        with tokens: TokenResponse, receivedAt date: Date, extra: [String: Data] = [:]
    ) throws -> InMemoryVault {
        let stored = StoredSession(tokens: tokens, receivedAt: date)
        return InMemoryVault(items: extra.merging(["session": try stored.encoded()]) { $1 })
    }

    @Test func C6_restoreFoundSessionSignsIn() async throws {
        // Set-up: a session stored an hour ago (an hour of access left).
        let seed = SessionHarness()
        let tokens = await seed.server.issueTokens()
        let harness = SessionHarness(vault: try vault(with: tokens, receivedAt: seed.clock.now))
        harness.clock.advance(by: 3600)

        // Act
        let outcome = await harness.client.restoreSession()

        // Check: signed in without a refresh.
        #expect(outcome == .signedIn(SessionFakeServer.alice))
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.alice))
        #expect(await harness.server.refreshGrants == 0)
    }

    @Test func C6_restoreRefreshesWhenLessThanFiveMinutesRemain() async throws {
        let harness = SessionHarness()
        let tokens = await harness.server.issueTokens(expiresIn: 7200)
        try await harness.vault.write(
            StoredSession(tokens: tokens, receivedAt: harness.clock.now).encoded(), for: "session")
        harness.clock.advance(by: 7200 - 120)

        let outcome = await harness.client.restoreSession()

        #expect(outcome == .signedIn(SessionFakeServer.alice))
        #expect(await harness.server.refreshGrants == 1)
        #expect(await harness.storedSession()?.accessToken == "at-2")
    }

    @Test func C6_restoreKeepsSessionWhenRefreshHasNoNetwork() async throws {
        let harness = SessionHarness()
        let tokens = await harness.server.issueTokens(expiresIn: 7200)
        try await harness.vault.write(
            StoredSession(tokens: tokens, receivedAt: harness.clock.now).encoded(), for: "session")
        harness.clock.advance(by: 86_400)
        await harness.server.set(refreshAnswer: .networkFailure)

        let outcome = await harness.client.restoreSession()

        #expect(outcome == .signedIn(SessionFakeServer.alice))
        #expect(await harness.storedSession()?.accessToken == "at-1")
    }

    @Test func C6_restoreWithRevokedSessionSignsOut() async throws {
        let harness = SessionHarness()
        let tokens = await harness.server.issueTokens(expiresIn: 7200)
        try await harness.vault.write(
            StoredSession(tokens: tokens, receivedAt: harness.clock.now).encoded(), for: "session")
        harness.clock.advance(by: 86_400)
        await harness.server.set(refreshAnswer: .sessionExpired)

        let outcome = await harness.client.restoreSession()

        #expect(outcome == .signedOut)
        #expect(harness.client.currentState == .signedOut)
        #expect(await harness.vault.read("session") == .notFound)
    }

    @Test func C6_restoreAfterRefreshTokenExpiredSaysExpired() async throws {
        let harness = SessionHarness()
        let tokens = await harness.server.issueTokens(expiresIn: 7200, refreshExpiresIn: 86_400)
        try await harness.vault.write(
            StoredSession(tokens: tokens, receivedAt: harness.clock.now).encoded(), for: "session")
        harness.clock.advance(by: 2 * 86_400)

        let outcome = await harness.client.restoreSession()

        #expect(outcome == .expired)
        #expect(harness.client.currentState == .expired)
        #expect(await harness.vault.read("session") == .notFound)
        #expect(await harness.server.requests.isEmpty)
    }

    @Test func C6_restoreNotFoundSignsOut() async throws {
        let harness = SessionHarness(vault: InMemoryVault(items: ["settings": Data("x".utf8)]))

        let outcome = await harness.client.restoreSession()

        #expect(outcome == .signedOut)
        #expect(harness.client.currentState == .signedOut)
        #expect(await harness.vault.keys == ["settings"])
    }

    @Test func C5_restoreFromLockedVaultChangesNothing() async throws {
        // Set-up: a stored session behind a locked vault (a device before first unlock).
        let harness = SessionHarness()
        let tokens = await harness.server.issueTokens()
        try await harness.vault.write(
            StoredSession(tokens: tokens, receivedAt: harness.clock.now).encoded(), for: "session")
        await harness.vault.lock()

        // Act
        let locked = await harness.client.restoreSession()

        // Check: "locked" is its own answer; nothing deleted, nobody signed out.
        #expect(locked == .vaultUnavailable)
        await harness.vault.unlock()
        #expect(await harness.storedSession()?.accessToken == "at-1")
        #expect(await harness.client.restoreSession() == .signedIn(SessionFakeServer.alice))
    }

    @Test func C6_restoreOfUnreadableSessionStartsOver() async throws {
        let harness = SessionHarness(vault: InMemoryVault(items: ["session": Data("{not json".utf8)]))

        let outcome = await harness.client.restoreSession()

        #expect(outcome == .signedOut)
        #expect(await harness.vault.read("session") == .notFound)
    }

    @Test func C6_restoreWhileSignedInKeepsTheSession() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        #expect(await harness.client.restoreSession() == .signedIn(SessionFakeServer.alice))
        #expect(await harness.server.refreshGrants == 0)
    }

    @Test func C5_sessionIsStoredAsOneJSONItem() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        guard case .found(let data) = await harness.vault.read("session") else {
            Issue.record("no session stored")
            return
        }
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "access_token", "refresh_token", "access_token_expires_at", "refresh_token_expires_at", "session_id",
                "user"
            ])
        #expect(object["access_token_expires_at"] as? String == "2027-01-15T10:00:00Z")
    }
}
