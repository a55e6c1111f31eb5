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

    /// Binds with App Attest when the client has an attester (issue 31 §3): a challenge, a fresh App Attest
    /// key attested over `{challenge}.{public_key}`, and the app's identity; the key id is remembered for
    /// the credential's later assertions.
    private func bind(request: DeviceCredentialRequest) async throws -> String {
        var request = request
        var attestedKeyID: String?
        if let appAttest {
            request.app = request.app ?? appAttest.app
            let challenge = try await perform(
                APICall<AppAttestChallengeInfo>(
                    method: "POST", path: "/v1/app-attest/challenges", requiresAuthorization: true))
            request.appAttest = try await appAttest.attestation(binding: request.publicKey, challenge: challenge)
            attestedKeyID = request.appAttest?.keyId
        }
        let credentialID = try await perform(
            APICall<DeviceCredentialCreated>(
                method: "POST", path: "/v1/device-credentials", body: request, requiresAuthorization: true)
        ).credentialId
        if let appAttest, let attestedKeyID { try await appAttest.remember(attestedKeyID, for: credentialID) }
        return credentialID
    }

    public func challenge(credentialID: String) async throws -> SignatureChallengeInfo {
        let info = try await perform(
            APICall<SignatureChallengeInfo>(
                method: "POST",
                path: "/v1/device-credentials/\(APICall<SignatureChallengeInfo>.segment(credentialID))/challenges",
                requiresAuthorization: false))
        await appAttest?.noteLoginChallenge(info, for: credentialID)
        return info
    }

    /// The `device_signature` grant; with App Attest, the assertion over the same login message of a
    /// challenge this client issued.
    public func signIn(challengeID: String, signature: String) async throws -> TokenResponse {
        let device = try await deviceInfo()
        let assertion = await appAttest?.loginAssertion(challengeID: challengeID)
        return try await perform(
            APICall<TokenResponse>(
                method: "POST", path: "/v1/token",
                body: TokenRequest(
                    grantType: .deviceSignature, challengeId: challengeID, signature: signature, device: device,
                    appAttestAssertion: assertion),
                requiresAuthorization: false))
    }

    /// The App Attest assertion (base64url) over `message` by the key that vouches for `credentialID`; nil
    /// without App Attest or for a credential bound without it (issue 31 §3).
    public func appAttestAssertion(over message: SignedMessage, credentialID: String) async -> String? {
        await appAttest?.assertion(over: message, credentialID: credentialID)
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
        await appAttest?.forget(credentialID)
    }

    /// The device keys bound to the signed-in user.
    public func deviceCredentials() async throws -> [DeviceCredentialInfo] {
        try await perform(
            APICall<[DeviceCredentialInfo]>(method: "GET", path: "/v1/device-credentials", requiresAuthorization: true))
    }
}
