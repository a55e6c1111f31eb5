import Foundation
import LatchCore

/// Turning biometric login on and off (B4, B5), for a signed-in user:
///
/// - **enable**: check availability, evaluate biometrics, create a device key, register its public key
///   with the server, keep the binding and the current domain state;
/// - **disable**: turn it off on this device (binding, domain state, device key) and remove the
///   credential on the server — later, if the server cannot be reached now.
///
/// Only a signed-in user can enable (the server's bind call needs the session; a session older than
/// 10 minutes also needs a verification token for `bind_device`).
///
///     let enrollment = BiometricEnrollment(authenticator: authenticator, keys: keys, store: store, api: api)
///     switch try await enrollment.enable(reason: "Turn on Face ID sign-in", deviceName: "Alice's iPhone") {
///     case .enabled(let binding): showEnabled(binding.biometry)
///     case .unavailable(let reason): showHint(reason)
///     case .notVerified(let failure): handle(failure)   // B2 classes; nothing changed
///     }
///     try await enrollment.disable()
public struct BiometricEnrollment: Sendable {
    public let authenticator: any BiometricAuthenticator
    public let keys: any DeviceKeyStore
    public let store: BiometricEnrollmentStore
    public let api: any DeviceCredentialAPI

    public init(
        authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore, store: BiometricEnrollmentStore,
        api: any DeviceCredentialAPI
    ) {
        self.authenticator = authenticator
        self.keys = keys
        self.store = store
        self.api = api
    }

    /// The binding while biometric login is enabled on this device.
    public func binding() async -> BiometricBinding? {
        await store.binding()
    }

    /// Enables biometric login (B5). An earlier binding on this device is replaced (and removed on the
    /// server). Throws what creating the key, the server or the vault throws; then nothing is left
    /// enabled and the new key is deleted.
    public func enable(
        reason: String, fallbackTitle: String? = nil, deviceName: String? = nil, verificationToken: String? = nil
    ) async throws -> BiometricEnableResult {
        let kind: BiometryKind
        switch await authenticator.availability() {
        case .available(let available): kind = available
        case .unavailable(let reason): return .unavailable(reason)
        }
        if case .failure(let failure) = await authenticator.evaluate(reason: reason, fallbackTitle: fallbackTitle) {
            return .notVerified(failure)
        }
        guard let reading = await authenticator.domainStateReading() else {
            throw BiometricEnrollmentError.enrollmentUnreadable
        }
        try await store.forget()
        let key = try await keys.createKey()
        let credentialID: String
        do {
            credentialID = try await api.bind(
                publicKey: key.publicKey, deviceName: deviceName, biometry: kind, protection: key.protection,
                verificationToken: verificationToken)
        } catch {
            try? await keys.deleteKey()
            throw error
        }
        let binding = BiometricBinding(credentialID: credentialID, biometry: kind)
        do {
            try await store.remember(binding, reading: reading)
        } catch {
            try? await keys.deleteKey()
            try? await api.unbind(credentialID: credentialID)
            throw error
        }
        await removeStaleCredentials()
        return .enabled(binding)
    }

    /// Disables biometric login: on this device at once (domain state, binding, device key — never the
    /// session), then on the server. Returns whether the server removed it too; if not (offline, or the
    /// session signed in more than 10 minutes ago without `verificationToken`), it is removed by a later
    /// `enable`, `disable` or `removeStaleCredentials` while signed in.
    ///
    /// `verificationToken`: from a verification of action `unbind_device` with parameters
    /// `{"credential_id": <the binding's credentialID>}`, needed when the sign-in is older than 10 minutes.
    @discardableResult
    public func disable(verificationToken: String? = nil) async throws -> Bool {
        try await store.forget()
        try await keys.deleteKey()
        await removeStaleCredentials(verificationToken: verificationToken)
        return await store.staleCredentialIDs().isEmpty
    }

    /// Removes on the server the credentials this device gave up (disabled, replaced, or turned off after
    /// an enrollment change while signed out). Needs a signed-in session (within 10 minutes, or
    /// `verificationToken`, single use, for the first of them); failures are kept for next time.
    public func removeStaleCredentials(verificationToken: String? = nil) async {
        var proof = verificationToken
        for credentialID in await store.staleCredentialIDs() {
            defer { proof = nil }
            do {
                try await api.unbind(credentialID: credentialID, verificationToken: proof)
            } catch DeviceCredentialError.credentialNotFound {
                // Already gone on the server.
            } catch {
                continue
            }
            try? await store.removeStale(credentialID)
        }
    }
}
