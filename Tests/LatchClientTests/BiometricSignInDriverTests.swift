import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// B6, C12, B4, B7: the driver runs the machine against the sensor, the key and the server. It is
/// `@MainActor`, so its updates arrive on the main actor (B7).
@Suite("B6 biometric sign-in driver")
@MainActor
struct BiometricSignInDriverTests {
    typealias Screen = BiometricSignIn.SignInScreen

    @Test func B6_signsInWithTheDeviceKeyAfterSignOut() async throws {
        // Set-up: enabled while signed in; then signed out.
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        await bed.sensor.enqueue(.match)

        // Act
        let update = await bed.driver().start(hasStoredSession: false)

        // Check: the server accepted the device's signature of its challenge.
        #expect(update == .finished(.signedIn(FakeCredentialServer.tokens)))
        #expect(await bed.server.challengeRequests == 1)
        #expect(
            await bed.sensor.prompts.last
                == .init(
                    reason: "Use Face ID to sign in to your account", fallbackTitle: "Sign in with password",
                    cancelTitle: "Cancel"))
    }

    @Test func C12_storedSessionIsUnlockedWithoutTheServer() async throws {
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        await bed.sensor.enqueue(.match)

        let update = await bed.driver().start(hasStoredSession: true)

        #expect(update == .finished(.useStoredSession))
        #expect(await bed.server.challengeRequests == 0)
    }

    @Test func B6_unboundDeviceShowsNoBiometricOptionAndNoPrompt() async {
        let bed = BiometricTestBed()

        let update = await bed.driver().start(hasStoredSession: false)

        #expect(update == .showSignIn(Screen(biometricOption: nil, notice: nil)))
        #expect(await bed.sensor.prompts.isEmpty)
    }

    @Test func C12_failureShowsSignInThenRetrySucceeds() async throws {
        // Set-up
        let bed = BiometricTestBed(kind: .touchID)
        _ = try await bed.enabled()
        // Three failed touches end the first prompt with −1 (seed 003); the retry matches.
        await bed.sensor.enqueue(.noMatch, .noMatch, .noMatch, .match)
        let driver = bed.driver(language: .zhHans)

        // Act and check: not recognized — message, password, and the option to retry.
        #expect(
            await driver.start(hasStoredSession: false)
                == .showSignIn(Screen(biometricOption: .touchID, notice: .notRecognized(.touchID))))
        #expect(BiometricNotice.notRecognized(.touchID).text(in: .zhHans) == "指纹验证失败")
        // Retry.
        #expect(await driver.biometricSignInTapped() == .finished(.signedIn(FakeCredentialServer.tokens)))
    }

    @Test func B4_reenrolledFaceTurnsBiometricLoginOffAndKeepsTheSession() async throws {
        // Set-up: enabled; then someone enrolls another face.
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()
        await bed.sensor.reenroll()

        // Act
        let update = await bed.driver().start(hasStoredSession: true)

        // Check: no prompt; biometric login off on this device; the session untouched.
        #expect(update == .showSignIn(Screen(biometricOption: nil, notice: .enrollmentChanged(.faceID))))
        #expect(await bed.sensor.prompts.count == 1) // only the one that enabled it
        #expect(await bed.store.binding() == nil)
        #expect(try await !bed.keys.hasKey())
        #expect(await bed.vault.items["session"] == BiometricTestBed.session)
        // The credential is removed on the server once someone is signed in again.
        #expect(await bed.store.staleCredentialIDs() == [binding.credentialID])
    }

    @Test func B6_credentialRemovedElsewhereTurnsBiometricLoginOff() async throws {
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()
        await bed.server.removeElsewhere(binding.credentialID)
        await bed.sensor.enqueue(.match)

        let update = await bed.driver().start(hasStoredSession: false)

        #expect(update == .showSignIn(Screen(biometricOption: nil, notice: .bindingRemoved(.faceID))))
        #expect(await bed.store.binding() == nil)
        #expect(try await !bed.keys.hasKey())
        #expect(await bed.vault.items["session"] == BiometricTestBed.session)
    }

    @Test func B6_offlineKeepsTheBindingForARetry() async throws {
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()
        await bed.server.set(challengeError: DeviceCredentialError.network)
        await bed.sensor.enqueue(.match, .match)
        let driver = bed.driver()

        #expect(
            await driver.start(hasStoredSession: false)
                == .showSignIn(Screen(biometricOption: .faceID, notice: .networkError)))
        #expect(await bed.store.binding() == binding)

        await bed.server.set()
        #expect(await driver.biometricSignInTapped() == .finished(.signedIn(FakeCredentialServer.tokens)))
    }

    @Test func B6_otherErrorsCountAsServerFailures() async throws {
        struct Odd: Error {}
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        await bed.server.set(challengeError: Odd())
        await bed.sensor.enqueue(.match)

        let update = await bed.driver().start(hasStoredSession: false)

        #expect(update == .showSignIn(Screen(biometricOption: .faceID, notice: .failed(.faceID))))
    }

    @Test func B2_lockedOutAtLaunchOffersThePasscodeUnlockAndKeepsTheBinding() async throws {
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        await bed.sensor.setUnavailable(.lockedOut)

        let update = await bed.driver().start(hasStoredSession: false)

        // Issue 23 §1 (seed 003 §5.3.2): the device passcode is offered to unlock it.
        #expect(
            update == .showSignIn(Screen(biometricOption: nil, notice: .lockedOut(.faceID), offersPasscodeUnlock: true))
        )
        #expect(await bed.store.binding() != nil)
    }

    @Test func test_23_1_lockedOutSignInUnlocksWithThePasscode() async throws {
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        await bed.sensor.setUnavailable(.lockedOut)
        let driver = bed.driver()
        _ = await driver.start(hasStoredSession: false)

        // The passcode is entered: the sensor is unlocked, and the prompt runs again and matches.
        await bed.sensor.enqueue(.passcode, .match)
        let update = await driver.unlockWithPasscodeTapped()

        #expect(update == .finished(.signedIn(FakeCredentialServer.tokens)))
    }

    @Test func B2_notInteractiveWaitsForTheAppToBecomeActive() async throws {
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        await bed.sensor.enqueue(.notInteractive, .match)
        let driver = bed.driver()

        #expect(await driver.start(hasStoredSession: false) == .pending)
        #expect(await driver.appBecameActive() == .finished(.signedIn(FakeCredentialServer.tokens)))
        #expect(await driver.appBecameActive() == .pending)
    }

    @Test func C12_passwordChosenMidwayDiscardsTheLateAnswer() async throws {
        // Set-up: the challenge request will hang until released.
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        let gate = CredentialServerGate()
        await bed.server.set(gate: gate)
        await bed.sensor.enqueue(.match)
        let driver = bed.driver()

        // Act: start; while the request hangs, the user chooses the password.
        let run = Task { await driver.start(hasStoredSession: false) }
        await gate.firstArrival()
        let screen = driver.passwordChosen()
        await gate.release()
        let late = await run.value

        // Check: the sign-in screen at once; the late answer changed nothing.
        #expect(screen == .showSignIn(Screen(biometricOption: .faceID, notice: nil)))
        #expect(late == .pending)
        #expect(driver.passwordChosen() == .pending)
        // Face ID again works from the start.
        await bed.sensor.enqueue(.match)
        #expect(await driver.biometricSignInTapped() == .finished(.signedIn(FakeCredentialServer.tokens)))
    }

    @Test func B7_driverIsMainActorIsolated() async {
        // Compiles only because the test is on the main actor: the driver's updates are delivered there.
        let driver = BiometricTestBed().driver()
        let update = await driver.start(hasStoredSession: false)
        MainActor.assertIsolated()
        #expect(update == .showSignIn(Screen(biometricOption: nil, notice: nil)))
    }
}
