import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// The typed API client: requests as the contract spells them (snake_case JSON, ISO 8601 dates, bearer,
/// Accept-Language) and every error answer mapped to `LatchClientError` (C11).
@Suite("API client (C11)")
struct APIClientTests {
    static let tokenJSON = #"""
        {"access_token":"at","token_type":"Bearer","expires_in":7200,"refresh_token":"rt","refresh_expires_in":2592000,
         "session_id":"s1","user":{"id":"u1","email":"a@example.com","email_verified":true,"nickname":null,
         "created_at":"2026-01-02T03:04:05Z"}}
        """#

    func api(_ recorder: RecordingTransport, base: String = "https://auth.example.com", language: String? = nil)
        -> LatchAPI
    {
        LatchAPI(serverURL: URL(string: base)!, transport: recorder, acceptLanguage: language)
    }

    // MARK: - Requests

    @Test func C5_passwordGrantIsSnakeCaseJSON() async throws {
        let recorder = RecordingTransport(.success(SessionFakeServer.json(200, Self.tokenJSON)))

        let tokens = try await api(recorder, language: "zh-Hans").passwordGrant(
            email: "a@example.com", password: "Secret123", device: DeviceInfo(id: "inst-1", platform: "iOS"))

        let request = try #require(await recorder.sent.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://auth.example.com/v1/token")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Accept-Language"] == "zh-Hans")
        #expect(request.headers["Authorization"] == nil)
        let body = try JSONDecoder().decode(SentPasswordGrant.self, from: request.body ?? Data())
        #expect(body.grant_type == "password")
        #expect(body.device?.id == "inst-1")
        #expect(tokens.user.createdAt == Date(timeIntervalSince1970: 1_767_323_045))
        #expect(tokens.refreshExpiresIn == 2_592_000)
    }

    @Test func C6_everyGrantNamesItsType() async throws {
        let recorder = RecordingTransport(.success(SessionFakeServer.json(200, Self.tokenJSON)))
        let api = api(recorder)

        _ = try await api.refreshGrant(refreshToken: "rt")
        _ = try await api.deviceSignatureGrant(challengeID: "c1", signature: "sig")
        _ = try await api.loginChallengeGrant(challengeID: "c2", code: "123456")

        let grants = await recorder.sent.compactMap(SessionFakeServer.grant(of:))
        #expect(grants.map(\.grantType) == [.refreshToken, .deviceSignature, .loginChallenge])
        #expect(grants[0].refreshToken == "rt")
        #expect(grants[1].challengeId == "c1" && grants[1].signature == "sig")
        #expect(grants[2].challengeId == "c2" && grants[2].code == "123456")
    }

    @Test func C8_signedInCallsCarryTheBearerAndEscapeIDs() async throws {
        let recorder = RecordingTransport(.success(HTTPResponse(status: 204)))
        let api = api(recorder, base: "https://example.com/auth/")

        try await api.revokeSession(id: "a b/c", accessToken: "tok")
        try await api.revokeOtherSessions(accessToken: "tok")
        try await api.logout(accessToken: "tok")

        let sent = await recorder.sent
        #expect(
            sent.map(\.url.absoluteString) == [
                "https://example.com/auth/v1/sessions/a%20b%2Fc", "https://example.com/auth/v1/sessions?scope=others",
                "https://example.com/auth/v1/logout"
            ])
        #expect(sent.map(\.method) == ["DELETE", "DELETE", "POST"])
        #expect(sent.allSatisfy { $0.headers["Authorization"] == "Bearer tok" })
    }

    @Test func C3_passwordCallsSendTheContractsFields() async throws {
        let recorder = RecordingTransport(.success(HTTPResponse(status: 204)))
        let api = api(recorder)

        try await api.forgotPassword(email: "a@example.com")
        try await api.resetPassword(
            ResetPasswordRequest(email: "a@example.com", code: "123456", newPassword: "New12345"))
        try await api.changePassword(
            ChangePasswordRequest(currentPassword: "Old12345", newPassword: "New12345"), accessToken: "t")

        let sent = await recorder.sent
        #expect(
            sent.map { SessionFakeServer.path(of: $0) } == [
                "/v1/password/forgot", "/v1/password/reset", "/v1/password/change"
            ])
        let reset = try #require(try JSONSerialization.jsonObject(with: sent[1].body ?? Data()) as? [String: String])
        #expect(reset == ["email": "a@example.com", "code": "123456", "new_password": "New12345"])
        let change = try #require(try JSONSerialization.jsonObject(with: sent[2].body ?? Data()) as? [String: String])
        #expect(change == ["current_password": "Old12345", "new_password": "New12345"])
    }

    // MARK: - Errors

    /// The status latchd uses for each code.
    static func status(of code: LatchErrorCode) -> Int {
        switch code {
        case .wrongCredentials, .sessionExpired, .dpopInvalid, .useDPoPNonce: 401
        case .locked: 423
        case .wrongCode, .validationFailed, .malformedBody: 400
        case .payloadTooLarge: 413
        case .rateLimited: 429
        case .notFound: 404
        case .methodNotAllowed: 405
        case .unsupportedMediaType: 415
        case .conflict: 409
        case .verificationRequired, .noVerificationMethod: 403
        case .verificationInvalid, .policyLimit, .newValueLocked: 403
        case .limitReached: 409
        case .internalError: 500
        case .accountDisabled, .securityHold, .accountFrozen: 403
        }
    }

    @Test(arguments: LatchErrorCode.allCases)
    func C11_everyServerCodeMapsToItsError(_ code: LatchErrorCode) {
        let message = code.message(in: .zhHans)
        let body = #"{"error":"\#(code.rawValue)","message":"\#(message)"}"#

        let error = LatchAPI.error(from: SessionFakeServer.json(Self.status(of: code), body))

        #expect(error.code == code)
        #expect(error.serverError?.rawCode == code.rawValue)
        #expect(error.serverError?.message == message)
        #expect(error.serverError?.status == Self.status(of: code))
        #expect(error.isSessionExpired == (code == .sessionExpired))
        #expect(error.isAccountDisabled == (code == .accountDisabled))
        #expect(error.isAccountFrozen == (code == .accountFrozen))
    }

    @Test func C11_detailsAreKept() throws {
        let locked = LatchAPI.error(
            from: SessionFakeServer.json(
                423, #"{"error":"AUTH_002","message":"账号已被锁定","locked_until":"2026-01-02T03:09:05Z"}"#))
        let wrongCode = LatchAPI.error(
            from: SessionFakeServer.json(400, #"{"error":"AUTH_003","message":"验证码错误","attempts_remaining":2}"#))
        let invalid = LatchAPI.error(
            from: SessionFakeServer.json(
                422,
                #"{"error":"VALIDATION_FAILED","message":"x","field":"password","reasons":["too_short","no_digit"]}"#))
        let limited = LatchAPI.error(
            from: SessionFakeServer.json(429, #"{"error":"RATE_LIMITED","message":"x","retry_after":42}"#))
        let limitedByHeader = LatchAPI.error(
            from: HTTPResponse(
                status: 429, headers: ["retry-after": "17"], body: Data(#"{"error":"RATE_LIMITED","message":"x"}"#.utf8)
            ))

        #expect(locked.code == .locked)
        #expect(locked.serverError?.lockedUntil == Date(timeIntervalSince1970: 1_767_323_345))
        #expect(wrongCode.serverError?.attemptsRemaining == 2)
        #expect(invalid.serverError?.field == "password")
        #expect(invalid.serverError?.reasons == ["too_short", "no_digit"])
        #expect(limited.serverError?.retryAfter == 42)
        #expect(limitedByHeader.serverError?.retryAfter == 17)
    }

    @Test func C8_verificationRequiredWithAChallengeIsTyped() {
        let totp = LatchAPI.error(
            from: SessionFakeServer.json(
                403, #"{"error":"VERIFICATION_REQUIRED","message":"x","challenge_id":"c9","method":"totp"}"#))
        let verificationRequired = LatchAPI.error(
            from: SessionFakeServer.json(
                403, #"{"error":"VERIFICATION_REQUIRED","message":"x","field":"verification_token"}"#))

        guard case .signInVerificationRequired(let challenge) = totp else {
            Issue.record("expected a sign-in challenge, got \(totp)")
            return
        }
        #expect(challenge == SignInChallenge(id: "c9", method: .totp))
        // Without a challenge it is the step-up kind: an ordinary server error with that code.
        #expect(verificationRequired.serverError?.field == "verification_token")
        #expect(verificationRequired.code == .verificationRequired)
    }

    @Test func C11_unknownCodesAndForeignBodies() {
        let future = LatchAPI.error(from: SessionFakeServer.json(418, #"{"error":"NEW_CODE","message":"Later."}"#))
        let html = LatchAPI.error(from: HTTPResponse(status: 502, body: Data("<html>Bad gateway</html>".utf8)))

        #expect(future.code == nil)
        #expect(future.serverError?.rawCode == "NEW_CODE")
        guard case .unexpected(status: 502) = html else {
            Issue.record("expected unexpected(502), got \(html)")
            return
        }
    }

    @Test func C11_networkFailureIsNetwork() async throws {
        let recorder = RecordingTransport(.failure(URLError(.notConnectedToInternet)))

        let error = await #expect(throws: LatchClientError.self) { try await api(recorder).me(accessToken: "t") }

        guard case .network(let underlying as URLError) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(underlying.code == .notConnectedToInternet)
    }

    @Test func C11_successBodyThatDoesNotDecodeIsUnexpected() async throws {
        let recorder = RecordingTransport(.success(SessionFakeServer.json(200, #"{"id":1}"#)))

        let error = await #expect(throws: LatchClientError.self) { try await api(recorder).me(accessToken: "t") }

        guard case .unexpected(status: 200) = error else {
            Issue.record("expected unexpected(200), got \(String(describing: error))")
            return
        }
    }

    @Test func C11_errorBodyIsMappedForTypedCalls() async throws {
        let recorder = RecordingTransport(
            .success(SessionFakeServer.json(401, #"{"error":"AUTH_001","message":"邮箱或密码错误","attempts_remaining":3}"#)))

        let error = await #expect(throws: LatchClientError.self) {
            try await api(recorder).passwordGrant(email: "a@example.com", password: "x")
        }

        #expect(error?.code == .wrongCredentials)
        #expect(error?.serverError?.message == "邮箱或密码错误")
        #expect(error?.serverError?.attemptsRemaining == 3)
    }
}

/// The password grant's body as sent, in its wire (snake_case) names.
private struct SentPasswordGrant: Decodable {
    struct Device: Decodable { var id: String? }
    var grant_type: String?
    var device: Device?
}
