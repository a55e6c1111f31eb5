import Crypto
import Foundation
import LatchCore

extension LatchClient {
    /// Signs in with Apple (C1, the recommended method): sends the identity token from
    /// `ASAuthorizationAppleIDCredential` and the raw nonce whose SHA-256 went into the Apple request.
    /// The first sign-in creates the account; `fullName` (Apple gives it only then) becomes its nickname.
    /// Pass `authorizationCode` too (`ASAuthorizationAppleIDCredential.authorizationCode`): with it the
    /// server can revoke the app's Apple authorization when the account is deleted (App Store 5.1.1(v)).
    ///
    ///     let nonce = AppleSignInNonce()                     // request.nonce = nonce.sha256
    ///     // … ASAuthorizationController runs, or use AppleSignInHelper on Apple platforms …
    ///     try await client.signInWithApple(identityToken: token, nonce: nonce.raw, fullName: name)
    ///
    /// A refused token throws `.server` with AUTH_001 and `reasons` (e.g. `expired`, `nonce_mismatch`);
    /// a server without Apple configured answers VALIDATION_FAILED `provider_not_configured`.
    @discardableResult
    public func signInWithApple(
        identityToken: String, nonce: String?, fullName: String? = nil, authorizationCode: String? = nil,
        device: DeviceInfo? = nil
    ) async throws -> UserInfo {
        let grant = TokenRequest(
            grantType: .apple, identityToken: identityToken, nonce: nonce, fullName: fullName,
            device: try await deviceInfo(device),
            authorizationCode: authorizationCode)
        return try await signIn(with: try await api.token(grant))
    }

    /// Signs in with the `code` of a WeChat authorisation (the WeChat SDK's `SendAuthResp.code`).
    /// The first sign-in creates the account. A bad or used code throws `.server` with AUTH_001 and
    /// `reasons` `invalid_code` / `code_used`.
    @discardableResult
    public func signInWithWeChat(code: String, device: DeviceInfo? = nil) async throws -> UserInfo {
        let grant = TokenRequest(grantType: .wechat, code: code, device: try await deviceInfo(device))
        return try await signIn(with: try await api.token(grant))
    }

    /// Asks the server to text a 6-digit sign-in code to `phone` (E.164, e.g. `+8613800138000`), for
    /// ``signIn(phone:code:device:)``. Too soon or too often throws `.server` RATE_LIMITED with `retryAfter`.
    @discardableResult
    public func requestSMSCode(phone: String) async throws -> SMSCodeAccepted {
        try await api.perform(
            APICall<SMSCodeAccepted>(
                method: "POST", path: "/v1/sms/codes", body: SMSCodeRequest(phone: phone), requiresAuthorization: false)
        )
    }

    /// Signs in with a texted code; the first sign-in of a number creates its account. A wrong code
    /// throws `.server` with AUTH_003 and `attemptsRemaining`, a locked number AUTH_002 with `lockedUntil`.
    @discardableResult
    public func signIn(phone: String, code: String, device: DeviceInfo? = nil) async throws -> UserInfo {
        let grant = TokenRequest(grantType: .smsCode, code: code, phone: phone, device: try await deviceInfo(device))
        return try await signIn(with: try await api.token(grant))
    }
}

/// The nonce of a Sign in with Apple request: `raw` (random, kept by the app and sent to latchd) and
/// `sha256` (lowercase hex, put into `ASAuthorizationAppleIDRequest.nonce`). Apple copies `sha256`
/// into the identity token, so a stolen token cannot be replayed without the raw nonce.
public struct AppleSignInNonce: Sendable, Equatable {
    /// 32 random bytes, base64url (43 characters).
    public let raw: String

    /// A fresh nonce from the system's secure random source.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(raw: Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// A nonce with a given raw value (tests).
    public init(raw: String) { self.raw = raw }

    /// The lowercase hex SHA-256 of `raw`: what the Apple request carries.
    public var sha256: String {
        Hex.lowercase(SHA256.hash(data: Data(raw.utf8)))
    }
}
