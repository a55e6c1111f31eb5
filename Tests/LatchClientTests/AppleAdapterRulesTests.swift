import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 11 §2: the rules behind the Apple adapters, decided in plain Swift and tested on Linux —
/// enrollment provenance and re-baselining, the invalidated key, key replacement, software protection.
@Suite("Apple adapter rules (issue 11 §2)")
struct AppleAdapterRulesTests {
    static let iOS17 = DomainStateReading.Source(api: .evaluatedPolicyDomainState, systemVersion: "17.6.1")
    static let iOS18 = DomainStateReading.Source(api: .domainState, systemVersion: "18.1")
    static let a = Data("state-A".utf8)
    static let b = Data("state-B".utf8)

    // MARK: - Enrollment change after an iOS update

    @Test("11 equal states are usable whatever produced them")
    func I11_equalStatesAreUsable() {
        #expect(
            EnrollmentCheck.evaluate(
                kept: .init(state: Self.a, source: Self.iOS17), read: .init(state: Self.a, source: Self.iOS18))
                == .usable)
        #expect(
            EnrollmentCheck.evaluate(
                kept: .init(state: Self.a, source: nil), read: .init(state: Self.a, source: Self.iOS18))
                == .usable)
    }

    @Test("11 a different state from the same API on the same OS version is a change")
    func I11_sameSourceDifferentStateIsAChange() {
        #expect(
            EnrollmentCheck.evaluate(
                kept: .init(state: Self.a, source: Self.iOS18), read: .init(state: Self.b, source: Self.iOS18))
                == .changed)
        // Both of unknown provenance (the simulator, older data on both sides): bytes decide, as before.
        #expect(EnrollmentCheck.evaluate(kept: .init(state: Self.a), read: .init(state: Self.b)) == .changed)
    }

    @Test("11 a different state after an iOS update (another API or OS version) is unconfirmed, not a change")
    func I11_otherSourceIsUnconfirmed() {
        #expect(
            EnrollmentCheck.evaluate(
                kept: .init(state: Self.a, source: Self.iOS17), read: .init(state: Self.b, source: Self.iOS18))
                == .unconfirmed)
        let patch = DomainStateReading.Source(api: .domainState, systemVersion: "18.2")
        #expect(
            EnrollmentCheck.evaluate(
                kept: .init(state: Self.a, source: Self.iOS18), read: .init(state: Self.b, source: patch))
                == .unconfirmed)
        // Kept by an older SDK without provenance, read now with it.
        #expect(
            EnrollmentCheck.evaluate(kept: .init(state: Self.a), read: .init(state: Self.b, source: Self.iOS18))
                == .unconfirmed)
        // Not enabled and unreadable keep their meaning.
        #expect(EnrollmentCheck.evaluate(kept: nil, read: .init(state: Self.b, source: Self.iOS18)) == .notEnabled)
        #expect(EnrollmentCheck.evaluate(kept: .init(state: Self.a, source: Self.iOS17), read: nil) == .usable)
    }

    @Test("11 the store keeps the provenance, re-baselines only while enabled, and forgets it with the state")
    func I11_storeKeepsAndRebaselinesTheReading() async throws {
        let vault = TestVault()
        let store = BiometricEnrollmentStore(vault: vault)
        let binding = BiometricBinding(credentialID: "cred-1", biometry: .faceID)

        try await store.rebaseline(to: .init(state: Self.b, source: Self.iOS18))
        #expect(await store.storedReading() == nil) // off: nothing written

        try await store.remember(binding, reading: .init(state: Self.a, source: Self.iOS17))
        #expect(await store.storedReading() == .init(state: Self.a, source: Self.iOS17))
        #expect(await store.check(reading: .init(state: Self.b, source: Self.iOS18)) == .unconfirmed)

        try await store.rebaseline(to: .init(state: Self.b, source: Self.iOS18))
        #expect(await store.storedReading() == .init(state: Self.b, source: Self.iOS18))
        #expect(await store.check(reading: .init(state: Self.b, source: Self.iOS18)) == .usable)

        try await store.forget()
        #expect(await store.storedReading() == nil)
        #expect(await vault.keys.contains(BiometricEnrollmentStore.domainStateSourceKey) == false)
    }

    @Test("11 after an iOS update the device key still signs: signed in, and the new state is the baseline")
    @MainActor
    func I11_updateReBaselinesWhenTheKeySigns() async throws {
        let bed = BiometricTestBed()
        await bed.sensor.setDomainStateSource(Self.iOS17)
        _ = try await bed.enabled()
        #expect(await bed.store.storedReading()?.source == Self.iOS17)
        await bed.sensor.updateSystem(to: Self.iOS18)
        let current = try #require(await bed.sensor.domainStateReading())
        #expect(await bed.store.check(reading: current) == .unconfirmed)
        await bed.sensor.enqueue(.match)

        let update = await bed.driver().start(hasStoredSession: false)

        #expect(update == .finished(.signedIn(FakeCredentialServer.tokens)))
        #expect(await bed.store.storedReading() == current)
        #expect(await bed.store.check(reading: current) == .usable)
        #expect(await bed.store.binding() != nil)
    }

    @Test("11 after an iOS update a key the enclave refuses means the enrollment changed: sign-in turned off")
    @MainActor
    func I11_updateWithRefusedKeyTurnsSignInOff() async throws {
        let bed = BiometricTestBed()
        await bed.sensor.setDomainStateSource(Self.iOS17)
        _ = try await bed.enabled()
        await bed.sensor.updateSystem(to: Self.iOS18)
        await bed.sensor.enqueue(.match)
        let driver = BiometricSignInDriver(
            authenticator: bed.sensor, keys: InvalidatedKeyStore(inner: bed.keys), enrollment: bed.store,
            api: bed.server)

        let update = await driver.start(hasStoredSession: false)

        #expect(update == .showSignIn(.init(biometricOption: nil, notice: .enrollmentChanged(.faceID))))
        #expect(await bed.store.binding() == nil)
        #expect(await bed.vault.items["session"] == BiometricTestBed.session)
    }

    // MARK: - Invalidated key

    @Test("11 errSecAuthFailed is an invalidated key (unusable), never a failed match")
    func I11_authFailedIsUnusable() {
        #expect(DeviceKeyError(securityStatus: -25293) == .unusable)
        #expect(DeviceKeyError(securityStatus: -25300) == .noKey)
        #expect(DeviceKeyError(securityStatus: -128) == .cancelled)
        #expect(DeviceKeyError(securityStatus: -25308) == .unavailable)
        #expect(DeviceKeyError(securityStatus: -50) == .platform(code: -50))
    }

    @Test("11 LAErrors from the enclave's own prompt go through the one outcome mapping")
    func I11_localAuthenticationCodesOfTheKeyPrompt() {
        #expect(DeviceKeyError(localAuthenticationCode: -1) == .authenticationFailed)
        for code in [-2, -3, -4, -9, -1004] {
            #expect(DeviceKeyError(localAuthenticationCode: code) == .cancelled, "LAError \(code)")
        }
        for code in [-5, -6, -7, -8] {
            #expect(DeviceKeyError(localAuthenticationCode: code) == .unavailable, "LAError \(code)")
        }
        #expect(DeviceKeyError(localAuthenticationCode: -10) == .platform(code: -10))
        #expect(DeviceKeyError(localAuthenticationCode: -42) == .platform(code: -42))
    }

    @Test("11 an invalidated key at sign-in turns biometric sign-in off, with the enrollment-changed notice")
    func I11_invalidatedKeyTurnsSignInOff() {
        var machine = BiometricSignInTests.evaluating()
        _ = machine.evaluationFinished(.success)
        _ = machine.challengeReceived(BiometricSignInTests.challenge)

        #expect(machine.signingFailed(DeviceKeyError(securityStatus: -25293)) == .forgetBinding)
        #expect(
            machine.bindingForgotten() == .showSignIn(.init(biometricOption: nil, notice: .enrollmentChanged(.faceID))))
    }

    @Test("11 an invalidated key on the verification page turns biometric sign-in off, so it is not offered again")
    @MainActor
    func I11_invalidatedKeyOnVerificationTurnsItOff() async throws {
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()
        let environment = LatchVerificationEnvironment(
            client: LatchClient(serverURL: URL(string: "http://127.0.0.1:9")!, vault: bed.vault),
            authenticator: bed.sensor,
            keys: InvalidatedKeyStore(inner: bed.keys), presenter: VerificationSheetModel(), sensor: .faceID,
            responder: VerificationInputRelay())
        let message = try SignedMessage.login(challengeID: "chl-1", challenge: "c")

        await #expect(throws: DeviceKeyError.unusable) {
            try await environment.sign(message, credentialID: binding.credentialID)
        }

        #expect(await bed.store.binding() == nil)
        #expect(try await bed.keys.publicKey() == nil)
        #expect(await bed.store.staleCredentialIDs() == [binding.credentialID])
        #expect(await bed.vault.items["session"] == BiometricTestBed.session)
    }

    // MARK: - Replacing a key

    @Test("11 replacing the software key: the old key signs until the new one is stored; a failed write keeps it")
    func I11_oldKeyStaysUntilTheNewOneExists() async throws {
        let vault = TestVault()
        let store = SoftwareDeviceKeyStore(vault: vault)
        let old = try await store.createKey()
        let message = try SignedMessage.login(challengeID: "chl-1", challenge: "c")

        await vault.lock()
        await #expect(throws: (any Error).self) { try await store.createKey() }
        await vault.unlock()
        #expect(try await store.publicKey() == old.publicKey)
        let signature = try await store.sign(message)
        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: old.publicKey, signatureDERBase64URL: signature, message: message))

        let new = try await store.createKey()
        #expect(new.publicKey != old.publicKey)
        #expect(try await store.publicKey() == new.publicKey)
        #expect(await vault.keys == [SoftwareDeviceKeyStore.defaultVaultKey])
    }

    // MARK: - The page swiped away

    @Test("11 a system dismissal of the page (swipe down) is the page's cancel; after the flow closed it, nothing")
    @MainActor
    func I11_swipeDownIsCancel() {
        let model = VerificationSheetModel()
        let received = InputLog()
        let screen = VerificationScreen(
            kind: .fundPassword, icon: VerificationIcon(symbol: .fundPassword, accessibilityLabel: "资金密码"),
            title: "资金密码",
            message: "请输入资金密码", buttons: [], announcement: VerificationAnnouncement("请输入资金密码"))
        model.present(screen, respond: VerificationResponder { received.append($0) })

        model.dismissedBySystem()
        model.dismiss(announcing: VerificationAnnouncement("已取消验证"))
        model.dismissedBySystem()

        #expect(received.inputs == [.tapped(.cancel)])
    }

    // MARK: - Software key fallback is visible

    @Test("11 the software key says so, and enabling tells the server")
    func I11_softwareProtectionIsSentAtBind() async throws {
        let bed = BiometricTestBed()

        _ = try await bed.enabled()

        #expect(await bed.server.protections == [.software])
        #expect(try await bed.keys.createKey().protection == .software)
    }
}
