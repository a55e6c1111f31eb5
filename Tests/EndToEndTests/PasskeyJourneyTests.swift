import Foundation
import LatchClient
import LatchCore
import LatchServer
import Testing

/// Issue 13 §4 end to end: a real latchd on loopback, LatchClient over real HTTP, and the SDK's
/// software authenticator making real WebAuthn responses: registration, sign-in with and without an
/// email, and step-up with a passkey bound to its action.
@Suite("Passkey journeys (end to end, issue 13)", .timeLimit(.minutes(10)))
struct PasskeyJourneyTests {
    static let email = "pat@example.com"
    static let password = "Correct-Horse-9"
    /// The live server runs with latchd's development relying party: RP ID `localhost`, origin
    /// `http://localhost:8080` (`RelyingParty.development`).
    static let origin = "http://localhost:8080"

    /// One device: a client with its vault and the software passkeys of that vault.
    struct Device {
        let vault = InMemoryVault()
        let client: LatchClient
        let passkeys: SoftwarePasskeyAuthenticator

        init(
            on server: LiveServer, passkeysIn passkeyVault: InMemoryVault? = nil,
            format: SoftwareAuthenticator.AttestationFormat = .none
        ) {
            client = server.client(vault: vault)
            passkeys = SoftwarePasskeyAuthenticator(
                vault: passkeyVault ?? vault, attestation: format, origin: { _ in PasskeyJourneyTests.origin })
        }

        func signUp(on server: LiveServer) async throws {
            let registration = try await client.signUp(
                email: email, password: password, nickname: "Pat", acceptTerms: true)
            try await client.verifyRegistration(id: registration, code: try await server.latestCode(to: email))
        }

        /// The verification page for `context`, answered by this device's passkey; any page that
        /// waits for the user cancels (so a wrong turn fails the test instead of hanging it).
        func verify(_ context: VerificationContext) async -> (VerificationResult, ScriptedPresenter) {
            let page = ScriptedPresenter { _ in .tapped(.cancel) }
            let result = await client.verify(
                context, authenticator: SimulatedAuthenticator(kind: .faceID),
                keys: SoftwareDeviceKeyStore(vault: vault), presenter: page,
                language: .en, passkeys: passkeys)
            return (result, page)
        }
    }

    @Test func test_I13_registerThenSignInWithAndWithoutEmailOnANewDeviceWithoutAnEmailedCode() async throws {
        try await withLiveServer { server in
            let laptop = Device(on: server, format: .packedSelf)
            try await laptop.signUp(on: server)

            let created = try await laptop.client.registerPasskey(name: "Pat's laptop", authenticator: laptop.passkeys)
            #expect(created.attestation == "self")
            let listed = try await laptop.client.passkeys()
            #expect(listed.map(\.id) == [created.id])
            #expect(listed.first?.name == "Pat's laptop")
            await laptop.client.signOut()

            // The same passkeys, another installation: a passkey is a strong factor, no emailed code.
            let mailsBefore = await server.app.latch.outbox?.messages(to: Self.email).count ?? 0
            for email in [Self.email, nil] {
                let other = Device(on: server, passkeysIn: laptop.vault)
                let user = try await other.client.signInWithPasskey(email: email, authenticator: other.passkeys)
                #expect(user.email == Self.email)
                #expect(try await other.client.passkeys().first?.lastUsedAt != nil)
                await other.client.signOut()
            }
            let mailsAfter = await server.app.latch.outbox?.messages(to: Self.email).count ?? 0
            #expect(mailsAfter == mailsBefore)
            #expect(try await laptop.passkeys.storedPasskeys().first?.signCount == 2)
        }
    }

    @Test func test_I13_aSecondRegistrationOfTheSamePasskeyAndAnUnknownEmailAreRefused() async throws {
        try await withLiveServer { server in
            let device = Device(on: server)
            try await device.signUp(on: server)
            try await device.client.registerPasskey(authenticator: device.passkeys)

            await #expect {
                try await device.client.registerPasskey(authenticator: device.passkeys)
            } throws: { error in
                if case PasskeyError.alreadyRegistered = error { return true }
                return false
            }
            await device.client.signOut()
            // The options for an email name no credential (issue 20 §7), so this device's passkey answers;
            // latchd accepts only the named account's passkeys, and an unknown email has none.
            await #expect {
                try await device.client.signInWithPasskey(email: "nobody@example.com", authenticator: device.passkeys)
            } throws: { error in
                if case PasskeyError.rejected(let reasons, _) = error { return reasons == ["unknown_credential"] }
                return false
            }
        }
    }

    @Test func test_I13_verifyingWithAPasskeyThroughTheVerificationPage() async throws {
        try await withLiveServer { server in
            let device = Device(on: server)
            try await device.signUp(on: server)
            try await device.client.registerPasskey(authenticator: device.passkeys)
            let withdrawal = VerificationContext(
                action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT"])

            let (result, page) = await device.verify(withdrawal)

            guard case .succeeded(let proof) = result else {
                Issue.record("expected a passkey verification, got \(result); pages: \(await page.screens.map(\.kind))")
                return
            }
            #expect(proof.method == .passkey)
            #expect(await page.settledScreens.isEmpty) // the sheet and the check only: nothing to tap
            #expect(await page.screens.map(\.kind).contains(.passkey))
            let redeemed = try await device.client.redeemVerification(
                proof.token, action: "withdrawal", parameters: withdrawal.parameters)
            #expect(redeemed.method == .passkey)
        }
    }

    @Test func test_I13_anAssertionMadeForOneVerificationDoesNotVerifyAnother() async throws {
        try await withLiveServer { server in
            let device = Device(on: server)
            try await device.signUp(on: server)
            try await device.client.registerPasskey(authenticator: device.passkeys)
            let small = try await device.client.startVerification(
                VerificationRequest(action: "withdrawal", parameters: ["amount": "1.00", "currency": "USDT"]))
            let large = try await device.client.startVerification(
                VerificationRequest(action: "withdrawal", parameters: ["amount": "9999.00", "currency": "USDT"]))
            let smallOptions = try #require(small.methods.first { $0.type == .passkey }?.options)
            let largeOptions = try #require(large.methods.first { $0.type == .passkey }?.options)
            #expect(smallOptions.challenge != largeOptions.challenge)

            // The person approved the small withdrawal; the assertion is replayed on the large one.
            let assertion = try await device.passkeys.assertion(smallOptions)
            await #expect {
                try await device.client.submitAttempt(
                    VerificationAttempt(method: .passkey, credential: assertion), verificationID: large.verificationId)
            } throws: { error in
                (error as? LatchClientError)?.serverError != nil
            }

            // It verifies the verification it was made for, and only that action and those parameters.
            let passed = try await device.client.submitAttempt(
                VerificationAttempt(method: .passkey, credential: assertion), verificationID: small.verificationId)
            await #expect(throws: LatchClientError.self) {
                try await device.client.redeemVerification(
                    passed.verificationToken, action: "withdrawal",
                    parameters: ["amount": "9999.00", "currency": "USDT"])
            }
        }
    }
}
