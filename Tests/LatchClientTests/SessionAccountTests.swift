import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// C8 and the profile: devices, revoking sessions, `me`.
@Suite("Account and devices (C8)")
struct SessionAccountTests {
    @Test func C8_sessionsListsDevicesWithDates() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        let sessions = try await harness.client.sessions()

        #expect(sessions.count == 1)
        #expect(sessions[0].current)
        #expect(sessions[0].deviceModel == "iPhone16,1")
        #expect(sessions[0].createdAt == Date(timeIntervalSince1970: 1_767_323_045))
        #expect(abs(sessions[0].lastActiveAt.timeIntervalSince1970 - 1_767_326_706.789) < 0.001)
    }

    @Test func C8_revokeOtherSessionsCallsScopeOthers() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        try await harness.client.revokeOtherSessions()

        #expect(await harness.server.count("DELETE", "/v1/sessions?scope=others") == 1)
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.alice))
    }

    @Test func C8_revokeAnotherSessionKeepsThisOne() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        try await harness.client.revokeSession(id: "s-other")

        #expect(await harness.server.count("DELETE", "/v1/sessions/s-other") == 1)
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.alice))
    }

    @Test func C8_revokingThisSessionSignsOutHere() async throws {
        let harness = SessionHarness()
        let tokens = try await harness.signIn()

        try await harness.client.revokeSession(id: tokens.sessionId)

        #expect(harness.client.currentState == .signedOut)
        #expect(await harness.vault.read("session") == .notFound)
    }

    @Test func C9_meRefreshesTheCachedUser() async throws {
        let harness = SessionHarness()
        try await harness.signIn()
        await harness.server.rename(SessionFakeServer.alice.id, to: "Ally")

        let user = try await harness.client.me()

        #expect(user.nickname == "Ally")
        #expect(harness.client.currentState.user?.nickname == "Ally")
        #expect(await harness.storedSession()?.user.nickname == "Ally")
    }
}
