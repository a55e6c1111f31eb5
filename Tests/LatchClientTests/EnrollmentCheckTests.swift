import Foundation
import Testing

@testable import LatchClient

/// B4: enrollment-change detection, and where the domain state is kept.
@Suite("B4 enrollment change")
struct EnrollmentCheckTests {
    static let stateA = Data("enrollment-A".utf8)
    static let stateB = Data("enrollment-B".utf8)
    static let binding = BiometricBinding(credentialID: "cred-1", biometry: .faceID)

    // MARK: - The pure check

    @Test func B4_nothingKeptMeansNotEnabled() {
        #expect(EnrollmentCheck.evaluate(stored: nil, current: Self.stateA) == .notEnabled)
        #expect(EnrollmentCheck.evaluate(stored: nil, current: nil) == .notEnabled)
    }

    @Test func B4_equalStateIsUsable() {
        #expect(EnrollmentCheck.evaluate(stored: Self.stateA, current: Data("enrollment-A".utf8)) == .usable)
    }

    @Test func B4_differentStateIsChanged() {
        #expect(EnrollmentCheck.evaluate(stored: Self.stateA, current: Self.stateB) == .changed)
    }

    @Test func B4_unreadableCurrentStateIsNotAChange() {
        // Locked out or unavailable: the state cannot be read, which proves nothing.
        #expect(EnrollmentCheck.evaluate(stored: Self.stateA, current: nil) == .usable)
    }

    // MARK: - The store

    @Test func B4_storeKeepsTheStateAndTheBindingInTheVault() async throws {
        // Set-up
        let vault = TestVault()
        let store = BiometricEnrollmentStore(vault: vault)

        // Act
        try await store.remember(Self.binding, domainState: Self.stateA)

        // Check
        #expect(await vault.items["biometric-domain-state"] == Self.stateA)
        #expect(await store.binding() == Self.binding)
        #expect(await store.check(current: Self.stateA) == .usable)
        #expect(await store.check(current: Self.stateB) == .changed)
        let json = try #require(await vault.items["biometric-binding"])
        #expect(String(decoding: json, as: UTF8.self).contains("\"credential_id\":\"cred-1\""))
    }

    @Test func B4_nothingKeptIsNotEnabled() async {
        let store = BiometricEnrollmentStore(vault: TestVault())

        #expect(await store.check(current: Self.stateA) == .notEnabled)
        #expect(await store.binding() == nil)
    }

    @Test func B4_lockedVaultLooksNotEnabledAndLosesNothing() async throws {
        let vault = TestVault()
        let store = BiometricEnrollmentStore(vault: vault)
        try await store.remember(Self.binding, domainState: Self.stateA)

        await vault.lock()
        let check = await store.check(current: Self.stateA)
        let binding = await store.binding()
        await vault.unlock()

        #expect(check == .notEnabled)
        #expect(binding == nil)
        #expect(await store.binding() == Self.binding)
    }

    @Test func B4_bindingWithoutDomainStateIsNotEnabled() async throws {
        // An interrupted enable wrote the binding but not yet the state that turns it on.
        let vault = TestVault(items: ["biometric-binding": try JSONEncoder().encode(Self.binding)])

        #expect(await BiometricEnrollmentStore(vault: vault).binding() == nil)
    }

    @Test func B4_changedNeverDeletesTheSession() async throws {
        // Set-up: a signed-in user with biometric login on; then someone enrolls another face.
        let vault = TestVault(items: ["session": Data("tokens".utf8), "settings": Data("dark".utf8)])
        let sensor = SimulatedAuthenticator(kind: .faceID)
        let keys = SoftwareDeviceKeyStore(vault: vault)
        let store = BiometricEnrollmentStore(vault: vault)
        _ = try await keys.createKey()
        try await store.remember(Self.binding, domainState: try #require(await sensor.domainState()))
        await sensor.reenroll()

        // Act: the check says changed; biometric login is turned off as the flows do it.
        let check = await store.check(current: await sensor.domainState())
        try await store.forget()
        try await keys.deleteKey()

        // Check: biometric login is off, the session and the app's settings are untouched.
        #expect(check == .changed)
        #expect(await store.binding() == nil)
        #expect(await store.check(current: await sensor.domainState()) == .notEnabled)
        #expect(try await !keys.hasKey())
        #expect(await vault.items["session"] == Data("tokens".utf8))
        #expect(await vault.items["settings"] == Data("dark".utf8))
        #expect(await store.staleCredentialIDs() == ["cred-1"])
    }

    @Test func B4_forgetKeepsTheCredentialForServerCleanUp() async throws {
        let store = BiometricEnrollmentStore(vault: TestVault())
        try await store.remember(Self.binding, domainState: Self.stateA)

        try await store.forget()
        try await store.forget() // twice is fine
        try await store.markStale("cred-0")
        try await store.markStale("cred-0")

        #expect(await store.staleCredentialIDs() == ["cred-1", "cred-0"])
        try await store.removeStale("cred-1")
        #expect(await store.staleCredentialIDs() == ["cred-0"])
        try await store.removeStale("cred-0")
        #expect(await store.staleCredentialIDs() == [])
    }
}
