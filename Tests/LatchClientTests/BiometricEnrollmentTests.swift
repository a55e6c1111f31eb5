import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// B5 (with B1, B2, B4): enabling and disabling biometric login.
@Suite("B5 enable and disable biometric login")
struct BiometricEnrollmentTests {
    @Test func B5_enableEvaluatesCreatesAKeyRegistersItAndRemembers() async throws {
        // Set-up
        let bed = BiometricTestBed(kind: .touchID)
        await bed.sensor.enqueue(.match)

        // Act
        let result = try await bed.enrollment.enable(
            reason: "Turn on Touch ID sign-in", fallbackTitle: "", deviceName: "Alice's iPhone",
            verificationToken: "vt-1")

        // Check: the server got the device's public key; the device kept the binding and the state.
        let binding = BiometricBinding(credentialID: "cred-1", biometry: .touchID)
        #expect(result == .enabled(binding))
        let publicKey = try #require(try await bed.keys.publicKey())
        #expect(
            await bed.server.binds == [
                .init(publicKey: publicKey, deviceName: "Alice's iPhone", biometry: .touchID, verificationToken: "vt-1")
            ])
        #expect(await bed.store.binding() == binding)
        #expect(await bed.store.storedDomainState() == (await bed.sensor.domainState()))
        #expect(await bed.enrollment.binding() == binding)
        #expect(await bed.sensor.prompts == [.init(reason: "Turn on Touch ID sign-in", fallbackTitle: "")])
    }

    @Test func B1_enableWhileUnavailableChangesNothing() async throws {
        let bed = BiometricTestBed()
        await bed.sensor.setUnavailable(.notEnrolled)

        let result = try await bed.enrollment.enable(reason: "r")

        #expect(result == .unavailable(.notEnrolled))
        #expect(await bed.sensor.prompts.isEmpty)
        #expect(await bed.server.binds.isEmpty)
        #expect(await bed.vault.keys == ["session"])
    }

    @Test(arguments: [SimulatedAuthenticator.Step.cancel, .noMatch, .otherMethod, .lockout])
    func B5_enableNeedsABiometricMatch(outcome: SimulatedAuthenticator.Step) async throws {
        let bed = BiometricTestBed()
        await bed.sensor.enqueue(outcome)

        let result = try await bed.enrollment.enable(reason: "r")

        guard case .notVerified = result else {
            Issue.record("expected notVerified, got \(result)")
            return
        }
        #expect(await bed.server.binds.isEmpty)
        #expect(await bed.vault.keys == ["session"])
    }

    @Test func B5_enableThatTheServerRefusesLeavesNothingEnabled() async throws {
        // Set-up: the session is too old to bind without a verification token.
        let bed = BiometricTestBed()
        await bed.server.set(bindError: DeviceCredentialError.server(code: .verificationRequired, message: nil))
        await bed.sensor.enqueue(.match)

        // Act and check
        await #expect(throws: DeviceCredentialError.server(code: .verificationRequired, message: nil)) {
            try await bed.enrollment.enable(reason: "r")
        }
        #expect(try await !bed.keys.hasKey())
        #expect(await bed.store.binding() == nil)
        #expect(await bed.vault.keys == ["session"])
    }

    @Test func B5_enableThatCannotRememberUnbindsAgain() async throws {
        // Set-up: the vault refuses writes after the key is made (it locks mid-way).
        struct LockingServer: DeviceCredentialAPI {
            let inner: FakeCredentialServer
            let vault: TestVault
            func bind(publicKey: String, deviceName: String?, biometry: BiometryKind, verificationToken: String?)
                async throws -> String
            {
                let id = try await inner.bind(
                    publicKey: publicKey, deviceName: deviceName, biometry: biometry,
                    verificationToken: verificationToken)
                await vault.lock()
                return id
            }
            func challenge(credentialID: String) async throws -> SignatureChallengeInfo {
                try await inner.challenge(credentialID: credentialID)
            }
            func signIn(challengeID: String, signature: String) async throws -> TokenResponse {
                try await inner.signIn(challengeID: challengeID, signature: signature)
            }
            func unbind(credentialID: String) async throws { try await inner.unbind(credentialID: credentialID) }
        }
        let bed = BiometricTestBed()
        let enrollment = BiometricEnrollment(
            authenticator: bed.sensor, keys: bed.keys, store: bed.store,
            api: LockingServer(inner: bed.server, vault: bed.vault))
        await bed.sensor.enqueue(.match)

        // Act
        await #expect(throws: TestVault.Refused.self) { try await enrollment.enable(reason: "r") }

        // Check: the server no longer holds the credential the device could not keep.
        #expect(await bed.server.unbinds == ["cred-1"])
        await bed.vault.unlock()
        #expect(await bed.store.binding() == nil)
    }

    @Test func B4_enableAgainAfterAnEnrollmentChange() async throws {
        // Set-up: enabled, then a re-enrollment turned it off (signed out, so the server still has it).
        let bed = BiometricTestBed()
        let first = try await bed.enabled()
        await bed.sensor.reenroll()
        await bed.sensor.enqueue(.match)
        #expect(
            await bed.driver().start(hasStoredSession: true)
                == .showSignIn(
                    BiometricSignIn.SignInScreen(biometricOption: nil, notice: .enrollmentChanged(.faceID))))

        // Act: signed in with the password, the user enables it again.
        let second = try await bed.enabled()

        // Check: a new credential; the old one removed on the server; the new state kept.
        #expect(second.credentialID != first.credentialID)
        #expect(await bed.server.unbinds == [first.credentialID])
        #expect(await bed.server.credentials.keys.sorted() == [second.credentialID])
        #expect(await bed.store.check(current: await bed.sensor.domainState()) == .usable)
        #expect(await bed.store.staleCredentialIDs().isEmpty)
    }

    @Test func B5_disableRemovesItOnBothSidesAndKeepsTheSession() async throws {
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()

        let removedOnServer = try await bed.enrollment.disable()

        #expect(removedOnServer)
        #expect(await bed.server.unbinds == [binding.credentialID])
        #expect(await bed.store.binding() == nil)
        #expect(try await !bed.keys.hasKey())
        #expect(await bed.vault.keys == ["session"])
    }

    @Test("10 §2 disable passes the unbind_device verification token to the server when it has one")
    func test_10_disableSendsVerificationToken() async throws {
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()

        let removedOnServer = try await bed.enrollment.disable(verificationToken: "vt-unbind")

        #expect(removedOnServer)
        #expect(await bed.server.unbinds == [binding.credentialID])
        #expect(await bed.server.unbindProofs == ["vt-unbind"])
    }

    @Test func B5_disableOfflineTurnsItOffNowAndOnTheServerLater() async throws {
        // Set-up
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()
        await bed.server.set(unbindError: DeviceCredentialError.network)

        // Act: offline.
        let removedOnServer = try await bed.enrollment.disable()

        // Check: off on the device at once; the server later.
        #expect(!removedOnServer)
        #expect(await bed.store.binding() == nil)
        #expect(try await !bed.keys.hasKey())
        #expect(await bed.store.staleCredentialIDs() == [binding.credentialID])
        await bed.server.set()
        await bed.enrollment.removeStaleCredentials()
        #expect(await bed.server.unbinds == [binding.credentialID])
        #expect(await bed.store.staleCredentialIDs().isEmpty)
    }

    @Test func B5_credentialAlreadyGoneOnTheServerCountsAsRemoved() async throws {
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()
        await bed.server.removeElsewhere(binding.credentialID)

        #expect(try await bed.enrollment.disable())
        #expect(await bed.store.staleCredentialIDs().isEmpty)
    }

    @Test func B5_disableWhenNotEnabledIsHarmless() async throws {
        let bed = BiometricTestBed()

        #expect(try await bed.enrollment.disable())
        #expect(await bed.vault.keys == ["session"])
    }
}
