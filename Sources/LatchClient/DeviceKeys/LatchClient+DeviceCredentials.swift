import Foundation
import LatchCore

/// The device-key endpoints (B5, B6) over the signed-in session.
extension LatchClient: DeviceCredentialAPI {
    public func bind(publicKey: String, deviceName: String?, biometry: BiometryKind, verificationToken: String?)
        async throws -> String
    {
        try await bind(
            request: DeviceCredentialRequest(
                publicKey: publicKey, deviceName: deviceName, biometry: biometry, verificationToken: verificationToken))
    }

    public func bind(
        publicKey: String, deviceName: String?, biometry: BiometryKind, protection: DeviceKeyProtection,
        verificationToken: String?
    ) async throws -> String {
        try await bind(
            request: DeviceCredentialRequest(
                publicKey: publicKey, deviceName: deviceName, biometry: biometry, verificationToken: verificationToken,
                protection: protection.rawValue))
    }

    private func bind(request: DeviceCredentialRequest) async throws -> String {
        try await perform(
            APICall<DeviceCredentialCreated>(
                method: "POST", path: "/v1/device-credentials", body: request, requiresAuthorization: true)
        ).credentialId
    }

    public func challenge(credentialID: String) async throws -> SignatureChallengeInfo {
        try await perform(
            APICall<SignatureChallengeInfo>(
                method: "POST",
                path: "/v1/device-credentials/\(APICall<SignatureChallengeInfo>.segment(credentialID))/challenges",
                requiresAuthorization: false))
    }

    public func signIn(challengeID: String, signature: String) async throws -> TokenResponse {
        let device = try await deviceInfo()
        return try await perform(
            APICall<TokenResponse>(
                method: "POST", path: "/v1/token",
                body: TokenRequest(
                    grantType: .deviceSignature, challengeId: challengeID, signature: signature, device: device),
                requiresAuthorization: false))
    }

    public func unbind(credentialID: String) async throws {
        try await unbind(credentialID: credentialID, verificationToken: nil)
    }

    public func unbind(credentialID: String, verificationToken: String?) async throws {
        try await perform(
            APICall<Void>(
                method: "DELETE", path: "/v1/device-credentials/\(APICall<Void>.segment(credentialID))",
                body: verificationToken.map { UnbindDeviceCredentialRequest(verificationToken: $0) },
                requiresAuthorization: true))
    }

    /// The device keys bound to the signed-in user.
    public func deviceCredentials() async throws -> [DeviceCredentialInfo] {
        try await perform(
            APICall<[DeviceCredentialInfo]>(method: "GET", path: "/v1/device-credentials", requiresAuthorization: true))
    }
}
