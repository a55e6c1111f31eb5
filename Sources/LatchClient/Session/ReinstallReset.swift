import Foundation

/// Opt-in "a reinstall clears the session" (issue 11 §2). The Keychain survives deleting the app, so a
/// reinstalled app would find the previous installation's session and biometric binding and sign the
/// user straight in. An app that wants a reinstall to start signed out runs this once at launch, before
/// `LatchClient.restoreSession()`:
///
///     let reset = ReinstallReset(vault: client.vault, marker: UserDefaultsInstallationMarker(), keys: keys)
///     try await reset.clearIfReinstalled()
///     let restoration = await client.restoreSession()
///
/// Without the installation mark (`UserDefaults`, deleted with the app) whatever the vault holds was left
/// by an earlier installation: the session's tokens, this device's biometric binding (its credential id
/// is kept, to be removed on the server at the next sign-in), the device key and the Face ID permission
/// record are deleted, and then the mark is set. The installation id and app data are left alone.
/// With the mark, nothing happens. If the vault cannot be read now (a locked Keychain before first
/// unlock) it throws and sets no mark, so the next launch tries again.
public struct ReinstallReset: Sendable {
    public let vault: any TokenVault
    public let marker: any InstallationMarker
    /// The device key store to empty too (`nil`: leave keys alone).
    public let keys: (any DeviceKeyStore)?

    public init(vault: any TokenVault, marker: any InstallationMarker, keys: (any DeviceKeyStore)? = nil) {
        self.vault = vault
        self.marker = marker
        self.keys = keys
    }

    /// Clears what an earlier installation left, once per installation. Returns whether this launch was
    /// the first of the installation (and so cleared).
    @discardableResult
    public func clearIfReinstalled() async throws -> Bool {
        guard !(await marker.isSet()) else { return false }
        if case .unavailable = await vault.read(StoredSession.vaultKey) { throw LatchClientError.vaultUnavailable }
        try await BiometricEnrollmentStore(vault: vault).forget()
        try await keys?.deleteKey()
        // The app's Face ID permission is asked again after a reinstall: explain it again (A6).
        try await BiometricEnrollmentStore.deleteIfPresent(FaceIDPermissionRecord.key, in: vault)
        try await BiometricEnrollmentStore.deleteIfPresent(StoredSession.vaultKey, in: vault)
        await marker.set()
        return true
    }
}
