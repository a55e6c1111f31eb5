import Foundation
import LatchCore

/// A thin typed client of the Latch HTTP API over an ``HTTPTransport``. It keeps no state: the caller
/// passes the access token. Apps normally use ``LatchClient``, which keeps the session and refreshes it.
///
///     let api = LatchAPI(serverURL: URL(string: "https://auth.example.com")!, transport: URLSessionTransport())
///     let tokens = try await api.passwordGrant(email: "a@example.com", password: "Secret123")
///     let devices = try await api.sessions(accessToken: tokens.accessToken)
///
/// Every failure is a ``LatchClientError``: `.server` with latchd's code and details, `.network` when no
/// answer arrived, `.unexpected` for an answer in no known format.
public struct LatchAPI: Sendable {
    /// The server's base URL (`https://auth.example.com`, or with a path prefix where latchd is mounted).
    public let serverURL: URL
    public let transport: any HTTPTransport
    /// Sent as `Accept-Language`, choosing the language of the server's messages (zh-Hans or en).
    public var acceptLanguage: String?
    /// Signs every request to the server with the session's DPoP key (issue 31 §3); nil: bearer tokens.
    public var dpop: DPoPSigner?

    public init(
        serverURL: URL, transport: any HTTPTransport, acceptLanguage: String? = nil, dpop: DPoPSigner? = nil
    ) {
        self.serverURL = serverURL
        self.transport = transport
        self.acceptLanguage = acceptLanguage
        self.dpop = dpop
    }

    // MARK: - Building blocks

    /// The HTTP request for `call`, with `Authorization: Bearer accessToken` when a token is given.
    /// Throws ``InsecureServerURL`` when the server URL is neither `https` nor loopback `http` (seed 004 §8.1).
    public func request<Response>(for call: APICall<Response>, accessToken: String? = nil) throws -> HTTPRequest {
        try ServerURLPolicy.check(serverURL)
        let base =
            serverURL.absoluteString.hasSuffix("/")
            ? String(serverURL.absoluteString.dropLast()) : serverURL.absoluteString
        guard let url = URL(string: base + call.path) else { throw URLError(.badURL) }
        var headers = ["Accept": "application/json"]
        if let acceptLanguage { headers["Accept-Language"] = acceptLanguage }
        if let accessToken { headers["Authorization"] = "Bearer \(accessToken)" }
        var body: Data?
        if let value = call.body {
            body = try APIJSON.encoder().encode(value)
            headers["Content-Type"] = "application/json"
        }
        return HTTPRequest(method: call.method, url: url, headers: headers, body: body)
    }

    /// Reads `response` as the answer to `call`: the decoded body for a 2xx, else the mapped error.
    public func result<Response>(of call: APICall<Response>, from response: HTTPResponse) throws -> Response {
        guard (200..<300).contains(response.status) else { throw Self.error(from: response) }
        do {
            return try call.decode(response.body)
        } catch {
            throw LatchClientError.unexpected(status: response.status)
        }
    }

    /// Sends `request`; a transport failure becomes `LatchClientError.network`. With a DPoP key (`dpop`),
    /// a request to the server carries a proof, and one refused with USE_DPOP_NONCE is signed again once
    /// with the nonce the answer gave (or, refused as `stale_iat`, once dated by the server's clock).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let dpop, (try? ServerURLPolicy.checkTokenDestination(request.url, server: serverURL)) != nil else {
            return try await sendOnce(request)
        }
        let response = try await sendOnce(try await dpop.signed(request))
        guard dpop.learn(from: response) else { return response }
        return try await sendOnce(try await dpop.signed(request))
    }

    private func sendOnce(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try await transport.send(request)
        } catch let error as LatchClientError {
            throw error
        } catch {
            throw LatchClientError.network(error)
        }
    }

    /// Sends `call` with `accessToken` (when the call needs one) and reads the answer.
    public func perform<Response>(_ call: APICall<Response>, accessToken: String? = nil) async throws -> Response {
        let response = try await send(request(for: call, accessToken: accessToken))
        return try result(of: call, from: response)
    }

    /// The error an unsuccessful answer means.
    ///
    /// A body in the API's error format becomes `.server` (or `.signInVerificationRequired` for a 403
    /// VERIFICATION_REQUIRED carrying a login challenge, `.accountFrozen` for ACCOUNT_FROZEN); anything
    /// else becomes `.unexpected(status:)`.
    public static func error(from response: HTTPResponse) -> LatchClientError {
        guard let body = try? APIJSON.decoder().decode(APIErrorBody.self, from: response.body) else {
            return .unexpected(status: response.status)
        }
        let retryAfter = response.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let error = LatchServerError(status: response.status, body: body, retryAfterHeader: retryAfter)
        if error.code == .verificationRequired, let challengeID = error.challengeID {
            return .signInVerificationRequired(
                SignInChallenge(id: challengeID, method: .init(serverName: error.method)))
        }
        if error.code == .accountFrozen { return .accountFrozen(error) }
        return .server(error)
    }

    // MARK: - Accounts

    /// `POST /v1/registrations`: mails a 6-digit code to `email`.
    public func register(_ registration: RegistrationRequest) async throws -> RegistrationAccepted {
        try await perform(.register(registration))
    }

    /// `POST /v1/registrations/{id}/verify`: creates the account and signs it in.
    public func verifyRegistration(id: String, code: String, device: DeviceInfo? = nil) async throws -> TokenResponse {
        try await perform(.verifyRegistration(id: id, code: code, device: device))
    }

    /// `POST /v1/password/forgot`.
    public func forgotPassword(email: String) async throws {
        try await perform(.forgotPassword(email: email))
    }

    /// `POST /v1/password/reset`: every session of the account ends.
    public func resetPassword(_ reset: ResetPasswordRequest) async throws {
        try await perform(.resetPassword(reset))
    }

    /// `POST /v1/password/change`: the account's other sessions end.
    public func changePassword(_ change: ChangePasswordRequest, accessToken: String) async throws {
        try await perform(.changePassword(change), accessToken: accessToken)
    }

    // MARK: - Token grants

    /// `POST /v1/token` with any grant.
    public func token(_ grant: TokenRequest) async throws -> TokenResponse {
        try await perform(.token(grant))
    }

    /// Grant `password`. An unusual sign-in throws `.signInVerificationRequired`.
    public func passwordGrant(email: String, password: String, device: DeviceInfo? = nil) async throws -> TokenResponse
    {
        try await token(.password(email: email, password: password, device: device))
    }

    /// Grant `refresh_token`: new tokens; the given refresh token is used up.
    public func refreshGrant(refreshToken: String) async throws -> TokenResponse {
        try await token(.refresh(refreshToken))
    }

    /// Grant `device_signature`: a bound device key's signature of a login challenge (B6).
    public func deviceSignatureGrant(challengeID: String, signature: String, device: DeviceInfo? = nil) async throws
        -> TokenResponse
    {
        try await token(
            TokenRequest(grantType: .deviceSignature, challengeId: challengeID, signature: signature, device: device))
    }

    /// Grant `login_challenge`: finishes an unusual sign-in with the mailed (or TOTP) code.
    public func loginChallengeGrant(challengeID: String, code: String, device: DeviceInfo? = nil) async throws
        -> TokenResponse
    {
        try await token(TokenRequest(grantType: .loginChallenge, challengeId: challengeID, code: code, device: device))
    }

    // MARK: - Signed in

    /// `POST /v1/logout`: ends this session on the server.
    public func logout(accessToken: String) async throws {
        try await perform(.logout, accessToken: accessToken)
    }

    /// `GET /v1/me`.
    public func me(accessToken: String) async throws -> UserInfo {
        try await perform(.me, accessToken: accessToken)
    }

    /// `PATCH /v1/me`.
    public func updateProfile(_ update: UpdateProfileRequest, accessToken: String) async throws -> UserInfo {
        try await perform(.updateProfile(update), accessToken: accessToken)
    }

    /// `GET /v1/sessions`.
    public func sessions(accessToken: String) async throws -> [SessionInfo] {
        try await perform(.sessions, accessToken: accessToken)
    }

    /// `DELETE /v1/sessions/{id}`.
    public func revokeSession(id: String, accessToken: String) async throws {
        try await perform(.revokeSession(id: id), accessToken: accessToken)
    }

    /// `DELETE /v1/sessions?scope=others`.
    public func revokeOtherSessions(accessToken: String) async throws {
        try await perform(.revokeOtherSessions, accessToken: accessToken)
    }
}
