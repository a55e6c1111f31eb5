import LatchCore

/// The server calls of device binding and biometric sign-in (B5, B6): `POST /v1/device-credentials`,
/// `POST /v1/device-credentials/{id}/challenges`, `POST /v1/token` with `grant_type=device_signature`,
/// and `DELETE /v1/device-credentials/{id}`. The session layer's API client implements it; the
/// biometric flows are generic over it so that they are tested with fakes.
///
/// Implementations throw `DeviceCredentialError` for the failures the flows tell apart, and may throw
/// anything else for the rest (treated like `.server`).
///
///     struct LatchDeviceCredentials: DeviceCredentialAPI {
///         let client: APIClient
///         func challenge(credentialID: String) async throws -> SignatureChallengeInfo {
///             try await client.post("/v1/device-credentials/\(credentialID)/challenges")   // 404 → .credentialNotFound
///         }
///         …
///     }
public protocol DeviceCredentialAPI: Sendable {
    /// Registers `publicKey` for the signed-in user (`bind` needs a recent sign-in, or a
    /// `verificationToken` for the action `bind_device`); returns the credential id.
    func bind(publicKey: String, deviceName: String?, biometry: BiometryKind, verificationToken: String?) async throws
        -> String

    /// `bind`, also telling the server what protects the key (`secure_enclave` or `software`), which it
    /// lists with the credential. The default drops `protection` (the server records `unknown`).
    func bind(
        publicKey: String, deviceName: String?, biometry: BiometryKind, protection: DeviceKeyProtection,
        verificationToken: String?
    ) async throws -> String

    /// A fresh login challenge for the credential (120 s, single use). Unauthenticated.
    func challenge(credentialID: String) async throws -> SignatureChallengeInfo

    /// Exchanges a signature of the login message for tokens.
    func signIn(challengeID: String, signature: String) async throws -> TokenResponse

    /// Removes the credential on the server (signed in).
    func unbind(credentialID: String) async throws

    /// Removes the credential on the server (signed in within 10 minutes, or with `verificationToken`
    /// for the action `unbind_device` with parameters `{"credential_id": credentialID}`).
    func unbind(credentialID: String, verificationToken: String?) async throws
}

extension DeviceCredentialAPI {
    public func bind(
        publicKey: String, deviceName: String?, biometry: BiometryKind, protection: DeviceKeyProtection,
        verificationToken: String?
    ) async throws -> String {
        try await bind(
            publicKey: publicKey, deviceName: deviceName, biometry: biometry, verificationToken: verificationToken)
    }

    /// Implementations that never pass a verification token (test fakes) need only `unbind(credentialID:)`.
    public func unbind(credentialID: String, verificationToken: String?) async throws {
        try await unbind(credentialID: credentialID)
    }
}
