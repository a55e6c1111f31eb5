import LatchCore

extension LatchClient {
    /// Biometric login for this client's user on this device (B4, B5), kept in this client's vault.
    public func biometricEnrollment(authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore)
        -> BiometricEnrollment
    {
        BiometricEnrollment(
            authenticator: authenticator, keys: keys, store: BiometricEnrollmentStore(vault: vault), api: self)
    }

    /// Turns on Face ID / Touch ID sign-in and verification for the signed-in user (B5): evaluates,
    /// creates the device key, registers it. A session older than 10 minutes needs `verificationToken`
    /// from a verification of action `bind_device`.
    public func enableBiometrics(
        authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore, reason: String, deviceName: String? = nil,
        verificationToken: String? = nil
    ) async throws -> BiometricEnableResult {
        let result = try await biometricEnrollment(authenticator: authenticator, keys: keys)
            .enable(reason: reason, deviceName: deviceName, verificationToken: verificationToken)
        if case .enabled(let binding) = result, binding.biometry != .touchID {
            // The prompt passed, so the app's Face ID permission is granted: verifications skip the explanation.
            await FaceIDPermissionRecord(vault: vault).remember()
        }
        return result
    }

    /// Turns biometric login off on this device, and on the server when it can be reached (then `true`).
    /// A session older than 10 minutes needs `verificationToken` from a verification of action
    /// `unbind_device` with parameters `{"credential_id": …}` for the server part.
    @discardableResult
    public func disableBiometrics(
        authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore, verificationToken: String? = nil
    ) async throws -> Bool {
        try await biometricEnrollment(authenticator: authenticator, keys: keys).disable(
            verificationToken: verificationToken)
    }

    /// The biometric sign-in flow (B6, C12) for this client's device key; pass its outcome to
    /// ``finishBiometricSignIn(_:)``.
    @MainActor
    public func biometricSignIn(
        authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore, language: LatchLanguage,
        reason: String? = nil
    ) -> BiometricSignInDriver {
        BiometricSignInDriver(
            authenticator: authenticator, keys: keys, enrollment: BiometricEnrollmentStore(vault: vault), api: self,
            language: language, reason: reason)
    }

    /// Enters the app after a biometric sign-in: adopts the tokens of a device-key sign-in, or brings
    /// back the stored session that a match unlocked.
    @discardableResult
    public func finishBiometricSignIn(_ outcome: BiometricSignIn.Outcome) async throws -> UserInfo {
        switch outcome {
        case .signedIn(let tokens):
            return try await signIn(with: tokens)
        case .useStoredSession:
            await restoreSession()
            guard let user = currentState.user else { throw LatchClientError.notSignedIn }
            return user
        }
    }
}
