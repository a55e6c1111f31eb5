import Crypto
import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 13 §2 in the SDK: `registerPasskey`, `signInWithPasskey`, `passkeys`, `renamePasskey`,
/// `removePasskey` with the software authenticator, against a fake latchd that checks what it gets
/// (the attestation object's key, then every assertion's signature, challenge and origin).
@Suite("Passkeys in the SDK (issue 13 §2)")
struct PasskeyClientTests {
    static let rpID = PasskeyServer.rpID
    static let origin = PasskeyServer.origin

    // MARK: Registration

    @Test(arguments: [SoftwareAuthenticator.AttestationFormat.none, .packedSelf])
    func test_I13_registerPasskeySendsARealCredentialAndKeepsItsKey(format: SoftwareAuthenticator.AttestationFormat)
        async throws
    {
        let device = PasskeyTestBed(attestation: format)
        try await device.signIn()

        let created = try await device.client.registerPasskey(name: "Laptop", authenticator: device.passkeys)

        #expect(created.name == "Laptop")
        #expect(created.attestation == (format == .none ? "none" : "self"))
        let stored = try await device.passkeys.storedPasskeys()
        #expect(stored.count == 1)
        #expect(stored.first?.rpID == Self.rpID)
        #expect(stored.first?.serverID == created.id)
        #expect(await device.server.registered.map(\.credentialID) == stored.map(\.credentialID))
    }

    @Test func test_I13_registerWithoutRecentSignInAsksForAddPasskeyVerification() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        await device.server.set(recentSignIn: false)

        await #expect {
            try await device.client.registerPasskey(authenticator: device.passkeys)
        } throws: { error in
            guard case PasskeyError.verificationRequired(let action, let parameters) = error else { return false }
            return action == "add_passkey" && parameters.isEmpty
        }
        #expect(try await device.passkeys.storedPasskeys().isEmpty)

        let created = try await device.client.registerPasskey(
            authenticator: device.passkeys, verificationToken: "proof-add")
        #expect(created.id == "pk-1")
    }

    @Test func test_I13_aSecondRegistrationOfTheSamePasskeyIsRefusedOnTheDevice() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)

        await #expect {
            try await device.client.registerPasskey(authenticator: device.passkeys)
        } throws: { error in
            if case PasskeyError.alreadyRegistered = error { return true }
            return false
        }
        #expect(await device.server.registered.count == 1)
    }

    // MARK: Sign-in

    @Test(arguments: [nil, "alice@example.com"])
    func test_I13_signInWithPasskeyWithAndWithoutEmail(email: String?) async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)
        await device.client.signOut()
        #expect(device.client.currentState == .signedOut)

        let user = try await device.client.signInWithPasskey(email: email, authenticator: device.passkeys)

        #expect(user == SessionFakeServer.alice)
        #expect(device.client.currentState == .signedIn(SessionFakeServer.alice))
        #expect(await device.server.optionsEmails == [email])
        let grant = try #require(await device.server.tokenGrants.first)
        #expect(grant.device?.id != nil) // the installation id goes with the grant
        // Discoverable (no email): the user handle from the creation options comes back.
        #expect(grant.credential?.response.userHandle == Base64URL.encode(Array("alice-handle".utf8)))
    }

    @Test func test_I13_eachSignInSignsAHigherCounterAndTheKeysSurviveANewAuthenticator() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)

        try await device.client.signInWithPasskey(authenticator: device.passkeys)
        // The CLI makes a new authenticator per run: the key and counter come from the vault.
        let later = SoftwarePasskeyAuthenticator(vault: device.vault, origin: { "https://\($0)" })
        try await device.client.signInWithPasskey(authenticator: later)

        #expect(try await later.storedPasskeys().first?.signCount == 2)
        #expect(await device.server.registered.first?.counter == 2)
    }

    @Test func test_I13_anEmailWithoutPasskeysHereIsNoCredentialAndNothingIsSent() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)
        await device.client.signOut()

        await #expect {
            try await device.client.signInWithPasskey(email: "bob@example.com", authenticator: device.passkeys)
        } throws: { error in
            if case PasskeyError.authenticator(.noCredential) = error { return true }
            return false
        }
        #expect(await device.server.tokenGrants.isEmpty)
        #expect(device.client.currentState == .signedOut)
    }

    @Test func test_I13_aRefusedAssertionIsRejectedWithTheServersReasons() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        try await device.client.registerPasskey(authenticator: device.passkeys)
        await device.client.signOut()
        // Another origin in the client data (a phishing page): the server refuses.
        let phished = SoftwarePasskeyAuthenticator(vault: device.vault, origin: { "https://\($0).evil.test" })

        await #expect {
            try await device.client.signInWithPasskey(authenticator: phished)
        } throws: { error in
            guard case PasskeyError.rejected(let reasons, _) = error else { return false }
            return reasons == ["bad_signature"]
        }
        #expect(device.client.currentState == .signedOut)
    }

    // MARK: Management

    @Test func test_I13_listRenameAndRemovePasskeys() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        let first = try await device.client.registerPasskey(authenticator: device.passkeys)
        let other = SoftwarePasskeyAuthenticator(vault: InMemoryVault(), origin: { "https://\($0)" })
        let second = try await device.client.registerPasskey(authenticator: other)

        #expect(try await device.client.passkeys().map(\.id) == [first.id, second.id])
        #expect(try await device.client.renamePasskey(id: first.id, name: "Work laptop").name == "Work laptop")

        try await device.client.removePasskey(id: second.id)
        #expect(try await device.client.passkeys().map(\.id) == [first.id])
    }

    @Test func test_I13_removingTheLastWayInIsLastWayIn() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        let only = try await device.client.registerPasskey(authenticator: device.passkeys)

        await #expect {
            try await device.client.removePasskey(id: only.id)
        } throws: { error in
            guard case PasskeyError.lastWayIn(let message) = error else { return false }
            return message == "这是账号唯一的登录方式，无法删除"
        }
        #expect(try await device.client.passkeys().count == 1)
    }

    @Test func test_I13_removingWithoutRecentSignInAsksForRemovePasskeyVerificationOfThatPasskey() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()
        let first = try await device.client.registerPasskey(authenticator: device.passkeys)
        _ = try await device.client.registerPasskey(authenticator: SoftwarePasskeyAuthenticator(vault: InMemoryVault()))
        await device.server.set(recentSignIn: false)

        await #expect {
            try await device.client.removePasskey(id: first.id)
        } throws: { error in
            guard case PasskeyError.verificationRequired(let action, let parameters) = error else { return false }
            return action == "remove_passkey" && parameters == ["passkey_id": first.id]
        }
        try await device.client.removePasskey(id: first.id, verificationToken: "proof-remove-\(first.id)")
        #expect(try await device.passkeys.forget(serverID: first.id))
        #expect(try await device.passkeys.storedPasskeys().isEmpty)
    }

    @Test func test_I13_anUnknownPasskeyIsNotFound() async throws {
        let device = PasskeyTestBed()
        try await device.signIn()

        await #expect {
            try await device.client.renamePasskey(id: "pk-9", name: "x")
        } throws: { error in
            if case PasskeyError.notFound = error { return true }
            return false
        }
    }

    @Test func test_I13_developmentOriginFollowsTheServerPortForLocalhost() {
        #expect(
            SoftwarePasskeyAuthenticator.origin(forRPID: "localhost", serverURL: URL(string: "http://127.0.0.1:8123")!)
                == "http://localhost:8123")
        #expect(
            SoftwarePasskeyAuthenticator.origin(
                forRPID: "example.com", serverURL: URL(string: "http://127.0.0.1:8123")!) == "https://example.com")
    }
}
