import Foundation
import Testing

@testable import LatchClient

/// Issue 11 §2: opt-in "a reinstall clears the session" — the Keychain (here the vault) survives a
/// reinstall, the installation mark (UserDefaults, here in memory) does not.
@Suite("Reinstall clears the session (issue 11 §2)")
struct ReinstallResetTests {
    @Test("11 the first launch after a reinstall clears the session, the binding and the key, then marks")
    func I11_reinstallClearsOnce() async throws {
        let bed = BiometricTestBed()
        let binding = try await bed.enabled()
        try await bed.vault.write(Data("granted".utf8), for: FaceIDPermissionRecord.key)
        try await bed.vault.write(Data("inst-1".utf8), for: InstallationIdentity.vaultKey)
        let marker = InMemoryInstallationMarker() // the app was deleted: UserDefaults are gone
        let reset = ReinstallReset(vault: bed.vault, marker: marker, keys: bed.keys)

        let cleared = try await reset.clearIfReinstalled()

        #expect(cleared)
        #expect(await bed.vault.items[StoredSession.vaultKey] == nil)
        #expect(await bed.store.binding() == nil)
        #expect(try await bed.keys.publicKey() == nil)
        #expect(await bed.vault.items[FaceIDPermissionRecord.key] == nil)
        #expect(await bed.store.staleCredentialIDs() == [binding.credentialID])
        #expect(await bed.vault.items[InstallationIdentity.vaultKey] == Data("inst-1".utf8))
        #expect(await marker.isSet())
    }

    @Test("11 later launches of the same installation leave everything as it is")
    func I11_markedInstallationKeepsTheSession() async throws {
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        let reset = ReinstallReset(vault: bed.vault, marker: InMemoryInstallationMarker(isSet: true), keys: bed.keys)

        let cleared = try await reset.clearIfReinstalled()

        #expect(!cleared)
        #expect(await bed.vault.items[StoredSession.vaultKey] == BiometricTestBed.session)
        #expect(await bed.store.binding() != nil)
        #expect(try await bed.keys.publicKey() != nil)
    }

    @Test("11 a locked vault clears nothing and sets no mark, so the next launch tries again")
    func I11_lockedVaultRetriesNextLaunch() async throws {
        let bed = BiometricTestBed()
        _ = try await bed.enabled()
        let marker = InMemoryInstallationMarker()
        let reset = ReinstallReset(vault: bed.vault, marker: marker, keys: bed.keys)
        await bed.vault.lock()

        let error = await #expect(throws: LatchClientError.self) { try await reset.clearIfReinstalled() }
        if case .vaultUnavailable? = error {
        } else {
            Issue.record("expected vaultUnavailable, got \(String(describing: error))")
        }

        #expect(!(await marker.isSet()))
        await bed.vault.unlock()
        #expect(try await reset.clearIfReinstalled())
        #expect(await bed.vault.items[StoredSession.vaultKey] == nil)
    }
}
