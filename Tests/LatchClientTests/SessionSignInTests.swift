import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// C2, C8 and the device-key hand-off: registration, sign-in, the unusual sign-in challenge, device info.
@Suite("Sign-up and sign-in (C2, C8)")
struct SessionSignInTests {
    @Test func C2_signUpReturnsTheRegistrationAndVerificationSignsIn() async throws {
        let harness = SessionHarness()

        let registration = try await harness.client.signUp(
            email: "alice@example.com", password: "Secret123", nickname: "Alice", acceptTerms: true)
        let user = try await harness.client.verifyRegistration(id: registration, code: "654321")

        #expect(registration == "reg-1")
        #expect(user == SessionFakeServer.alice)
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.alice))
        let sent = try #require(await harness.server.requests(to: "/v1/registrations").first?.body)
        let body = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(body["terms_accepted"] as? Bool == true)
        #expect(body["nickname"] as? String == "Alice")
    }

    @Test func C6_signInStoresTheSessionAndAnnouncesIt() async throws {
        let harness = SessionHarness()
        var iterator = harness.client.state.makeAsyncIterator()

        let user = try await harness.client.signIn(email: "alice@example.com", password: SessionFakeServer.password)

        #expect(user == SessionFakeServer.alice)
        #expect(await iterator.next() == .signedOut)
        #expect(await iterator.next() == .signedIn(SessionFakeServer.alice))
        #expect(await harness.storedSession()?.refreshToken == "rt-1")
    }

    @Test func C11_wrongPasswordIsAUTH001() async throws {
        let harness = SessionHarness()

        let error = await #expect(throws: LatchClientError.self) {
            try await harness.client.signIn(email: "alice@example.com", password: "wrong")
        }

        #expect(error?.code == .wrongCredentials)
        #expect(harness.client.currentState == .signedOut)
    }

    @Test func C8_unusualSignInSurfacesTheChallengeThenCompletes() async throws {
        // Set-up
        let harness = SessionHarness()

        // Act: the password is right but the device is new to the account.
        let error = await #expect(throws: LatchClientError.self) {
            try await harness.client.signIn(email: "unusual@example.com", password: SessionFakeServer.password)
        }

        // Check: a typed challenge; answering it signs in.
        guard case .signInVerificationRequired(let challenge) = error else {
            Issue.record("expected a sign-in challenge, got \(String(describing: error))")
            return
        }
        #expect(challenge == SignInChallenge(id: "ch-1", method: .email))
        #expect(error?.code == .verificationRequired)
        #expect(harness.client.currentState == .signedOut)

        let wrong = await #expect(throws: LatchClientError.self) {
            try await harness.client.completeSignIn(challengeID: challenge.id, code: "000000")
        }
        #expect(wrong?.code == .wrongCode)
        #expect(wrong?.serverError?.attemptsRemaining == 4)

        let user = try await harness.client.completeSignIn(
            challengeID: challenge.id, code: SessionFakeServer.challengeCode)
        #expect(user == SessionFakeServer.alice)
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.alice))
    }

    @Test func C8_signInSendsTheInstallationIDAsDeviceID() async throws {
        let harness = SessionHarness()

        try await harness.client.signIn(
            email: "alice@example.com", password: SessionFakeServer.password, device: DeviceInfo(name: "Alice's iPhone")
        )

        let grant = try #require(SessionFakeServer.grant(of: await harness.server.requests(to: "/v1/token")[0]))
        let installationID = try await harness.client.installationID()
        #expect(grant.device?.id == installationID)
        #expect(grant.device?.name == "Alice's iPhone")
        #expect(grant.device?.platform == ThisDevice.platform)
        #expect(UUID(uuidString: installationID) != nil)
    }

    @Test func C8_installationIDIsMadeOnceAndKept() async throws {
        let vault = InMemoryVault()
        let first = SessionHarness(vault: vault)

        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await first.client.installationID() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        let later = try await SessionHarness(vault: vault).client.installationID()

        #expect(ids.count == 1)
        #expect(ids.first == later)
        #expect(await vault.read("installation-id") == .found(Data(later.utf8)))
    }

    @Test func C5_installationIDNeedsAnUnlockedVault() async throws {
        let vault = InMemoryVault()
        await vault.lock()
        let harness = SessionHarness(vault: vault)

        let error = await #expect(throws: LatchClientError.self) { try await harness.client.installationID() }

        guard case .vaultUnavailable = error else {
            Issue.record("expected vaultUnavailable, got \(String(describing: error))")
            return
        }
    }

    @Test func B6_signInWithTokensFromAnotherGrant() async throws {
        // The device-key flow obtains tokens by grant device_signature and hands them over.
        let harness = SessionHarness()
        let tokens = await harness.server.issueTokens(for: SessionFakeServer.bob)

        let user = try await harness.client.signIn(with: tokens)

        #expect(user == SessionFakeServer.bob)
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.bob))
        #expect(await harness.storedSession()?.accessToken == tokens.accessToken)
    }

    @Test func C5_signInThatCannotBeStoredIsUndone() async throws {
        // Set-up: the vault refuses writes (a locked device).
        let vault = InMemoryVault()
        let harness = SessionHarness(vault: vault)
        _ = try await harness.client.installationID()
        await vault.lock()
        let tokens = await harness.server.issueTokens()

        // Act
        let error = await #expect(throws: LatchClientError.self) { try await harness.client.signIn(with: tokens) }

        // Check: not signed in here, and the server session was ended again.
        guard case .vaultUnavailable = error else {
            Issue.record("expected vaultUnavailable, got \(String(describing: error))")
            return
        }
        #expect(harness.client.currentState == .signedOut)
        #expect(await harness.server.count("POST", "/v1/logout") == 1)
    }
}
