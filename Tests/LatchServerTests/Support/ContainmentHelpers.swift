import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

/// Journeys the issue 19 tests share.
extension TestServer {
    /// Asks for a password reset code for `email` and resets the password with it (adding
    /// `second_factor` when given); the reset's answer.
    func resetPassword(
        _ email: String = "alice@example.com", to newPassword: String, secondFactor: String? = nil
    ) async throws -> TestResponse {
        let asked = try await send(.POST, "/v1/password/forgot", json: ["email": email])
        try #require(asked.status == 202, "forgot: \(asked.text)")
        var body: [String: Any] = ["email": email, "code": try await latestCode(to: email), "new_password": newPassword]
        if let secondFactor { body["second_factor"] = secondFactor }
        return try await send(.POST, "/v1/password/reset", json: body)
    }

    /// Signs in with `authenticator`'s passkey on fresh sign-in options (grant `passkey`).
    func passkeySignIn(_ authenticator: inout SoftwareAuthenticator, device: DeviceInfo? = nil) async throws
        -> TestResponse
    {
        let options = try await passkeySignInOptions()
        let assertion = try authenticator.assert(
            challenge: options.options.challenge, rpID: Passkeys.rpID, origin: Passkeys.origin)
        return try await passkeyGrant(challengeID: options.challengeId, credential: assertion, device: device)
    }
}
