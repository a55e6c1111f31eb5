import Foundation
import LatchCore
import Testing

/// The wire format of the token API: snake_case keys, and optionals left out when nil.
@Suite("API coding")
struct APICodingTests {
    let createdAt = Date(timeIntervalSince1970: 1_700_000_000)

    /// Encodes `value` with a plain `JSONEncoder` and reads it back as a JSON object.
    func jsonObject(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func C5_tokenResponseUsesSnakeCaseKeys() throws {
        // Set-up
        let user = UserInfo(
            id: "u1", email: "alice@example.com", emailVerified: true, nickname: "Alice", createdAt: createdAt)
        let response = TokenResponse(
            accessToken: "at", expiresIn: 7200, refreshToken: "rt", refreshExpiresIn: 2_592_000, sessionId: "s1",
            user: user)

        // Act
        let json = try jsonObject(response)

        // Check
        #expect(
            Set(json.keys) == [
                "access_token", "token_type", "expires_in", "refresh_token", "refresh_expires_in", "session_id", "user"
            ])
        #expect(json["token_type"] as? String == "Bearer")
        #expect(json["expires_in"] as? Int == 7200)
        #expect(json["refresh_expires_in"] as? Int == 2_592_000)
        let userJSON = try #require(json["user"] as? [String: Any])
        #expect(Set(userJSON.keys) == ["id", "email", "email_verified", "nickname", "created_at"])
        #expect(userJSON["email_verified"] as? Bool == true)
    }

    @Test func C5_tokenResponseOmitsNilUserFields() throws {
        let user = UserInfo(id: "u1", email: nil, emailVerified: false, nickname: nil, createdAt: createdAt)
        let response = TokenResponse(
            accessToken: "at", expiresIn: 7200, refreshToken: "rt", refreshExpiresIn: 2_592_000, sessionId: "s1",
            user: user)

        let json = try jsonObject(response)

        let userJSON = try #require(json["user"] as? [String: Any])
        #expect(Set(userJSON.keys) == ["id", "email_verified", "created_at"])
    }

    @Test func C5_tokenResponseRoundTrips() throws {
        let user = UserInfo(
            id: "u1", email: "alice@example.com", emailVerified: true, nickname: nil, createdAt: createdAt)
        let response = TokenResponse(
            accessToken: "at", expiresIn: 7200, refreshToken: "rt", refreshExpiresIn: 2_592_000, sessionId: "s1",
            user: user)

        let decoded = try JSONDecoder().decode(TokenResponse.self, from: JSONEncoder().encode(response))

        #expect(decoded == response)
    }

    @Test func C1_passwordGrantUsesSnakeCaseKeysAndOmitsNils() throws {
        let request = TokenRequest.password(email: "alice@example.com", password: "Xk7mQp2z")

        let json = try jsonObject(request)

        #expect(Set(json.keys) == ["grant_type", "email", "password"])
        #expect(json["grant_type"] as? String == "password")
    }

    @Test func C6_refreshGrantUsesSnakeCaseKeysAndOmitsNils() throws {
        let request = TokenRequest.refresh("rt")

        let json = try jsonObject(request)

        #expect(Set(json.keys) == ["grant_type", "refresh_token"])
        #expect(json["grant_type"] as? String == "refresh_token")
        #expect(json["refresh_token"] as? String == "rt")
    }

    @Test func C8_tokenRequestCarriesDeviceInfoWithoutNilFields() throws {
        let request = TokenRequest.password(
            email: "alice@example.com", password: "Xk7mQp2z",
            device: DeviceInfo(name: "Alice's iPhone", platform: "iOS"))

        let json = try jsonObject(request)

        let device = try #require(json["device"] as? [String: Any])
        #expect(Set(json.keys) == ["grant_type", "email", "password", "device"])
        #expect(Set(device.keys) == ["name", "platform"])
    }

    @Test func C6_tokenRequestDecodesFromSnakeCase() throws {
        let body = Data(#"{"grant_type":"refresh_token","refresh_token":"rt"}"#.utf8)

        let request = try JSONDecoder().decode(TokenRequest.self, from: body)

        #expect(request == .refresh("rt"))
    }

    @Test func C11_errorBodyOmitsNilDetails() throws {
        let body = APIErrorBody(error: "AUTH_001", message: "邮箱或密码错误")

        let json = try jsonObject(body)

        #expect(Set(json.keys) == ["error", "message"])
        #expect(json["error"] as? String == "AUTH_001")
        #expect(json["message"] as? String == "邮箱或密码错误")
    }

    @Test func C11_errorBodyUsesSnakeCaseKeysForDetails() throws {
        let body = APIErrorBody(
            error: "AUTH_002", message: "账号已被锁定", field: "password", reasons: ["too_short"], attemptsRemaining: 2,
            lockedUntil: createdAt, retryAfter: 30)

        let json = try jsonObject(body)

        #expect(
            Set(json.keys) == [
                "error", "message", "field", "reasons", "attempts_remaining", "locked_until", "retry_after"
            ])
        #expect(json["attempts_remaining"] as? Int == 2)
        #expect(json["retry_after"] as? Int == 30)
        #expect(json["reasons"] as? [String] == ["too_short"])
    }
}
