import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

/// Passkey journeys for the issue 13 tests: the software authenticator plays the browser and the
/// authenticator; the test server's relying party is the development one (RP ID `localhost`).
enum Passkeys {
    static let origin = "http://localhost:8080"
    static let rpID = "localhost"
}

extension TestServer {
    /// `POST /v1/passkeys/registration/options`.
    func passkeyRegistrationOptions(bearer: String, verificationToken: String? = nil) async throws -> TestResponse {
        if let verificationToken {
            return try await send(
                .POST, "/v1/passkeys/registration/options", json: ["verification_token": verificationToken],
                bearer: bearer)
        }
        return try await send(.POST, "/v1/passkeys/registration/options", body: nil, bearer: bearer)
    }

    /// Registration options, required to succeed.
    func passkeyCreationOptions(bearer: String) async throws -> PasskeyRegistrationOptions {
        let answer = try await passkeyRegistrationOptions(bearer: bearer)
        try #require(answer.status == 200, "registration options: \(answer.text)")
        return try answer.decode(PasskeyRegistrationOptions.self)
    }

    /// `POST /v1/passkeys` with `credential` for the challenge `challengeID`.
    func postPasskey(challengeID: String, credential: RegistrationResponseJSON, name: String? = nil, bearer: String)
        async throws
        -> TestResponse
    {
        try await send(
            .POST, "/v1/passkeys",
            json: PasskeyRegistrationRequest(challengeId: challengeID, credential: credential, name: name),
            bearer: bearer)
    }

    /// Registers `authenticator`'s credential for the signed-in user; required to succeed.
    @discardableResult
    func registerPasskey(
        _ authenticator: inout SoftwareAuthenticator, format: SoftwareAuthenticator.AttestationFormat = .none,
        name: String? = nil,
        bearer: String
    ) async throws -> PasskeyCreated {
        let options = try await passkeyCreationOptions(bearer: bearer)
        let credential = try authenticator.register(options: options.options, origin: Passkeys.origin, format: format)
        let created = try await postPasskey(
            challengeID: options.challengeId, credential: credential, name: name, bearer: bearer)
        try #require(created.status == 201, "register passkey: \(created.text)")
        return try created.decode(PasskeyCreated.self)
    }

    /// `POST /v1/passkeys/authentication/options`, with `{email}` or no body.
    func passkeySignInOptions(email: String? = nil) async throws -> PasskeyAuthenticationOptions {
        let answer =
            if let email { try await send(.POST, "/v1/passkeys/authentication/options", json: ["email": email]) } else {
                try await send(.POST, "/v1/passkeys/authentication/options", body: nil)
            }
        try #require(answer.status == 200, "authentication options: \(answer.text)")
        return try answer.decode(PasskeyAuthenticationOptions.self)
    }

    /// `POST /v1/token` grant `passkey`.
    func passkeyGrant(challengeID: String, credential: AuthenticationResponseJSON, device: DeviceInfo? = nil)
        async throws
        -> TestResponse
    {
        try await send(
            .POST, "/v1/token",
            json: TokenRequest(grantType: .passkey, challengeId: challengeID, credential: credential, device: device))
    }
}

extension TestResponse {
    var reasons: [String]? { errorBody?.reasons }
}
