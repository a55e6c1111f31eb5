import LatchCore

/// What the sign-in screen needs from the server; `LatchClient` is one, tests pass a fake.
///
///     let model = SignInScreenModel(service: client, availability: …, language: .zhHans) { method in … }
public protocol SignInService: Sendable {
    /// Email + password (grant `password`). An unusual sign-in throws
    /// `LatchClientError.signInVerificationRequired`; wrong credentials AUTH_001 with
    /// `attempts_remaining`; a locked account AUTH_002 with `locked_until`.
    func signInWithPassword(email: String, password: String) async throws -> UserInfo

    /// Answers an unusual sign-in's challenge with the mailed or authenticator code.
    func answerSignInChallenge(id: String, code: String) async throws -> UserInfo

    /// `POST /v1/sms/codes`: texts a sign-in code; the answer's `resend_after` starts the countdown.
    func sendSignInCode(phone: String) async throws -> SMSCodeAccepted

    /// Phone + texted code (grant `sms_code`).
    func signInWithCode(phone: String, code: String) async throws -> UserInfo
}

extension LatchClient: SignInService {
    public func signInWithPassword(email: String, password: String) async throws -> UserInfo {
        try await signIn(email: email, password: password)
    }

    public func answerSignInChallenge(id: String, code: String) async throws -> UserInfo {
        try await completeSignIn(challengeID: id, code: code)
    }

    public func sendSignInCode(phone: String) async throws -> SMSCodeAccepted {
        try await requestSMSCode(phone: phone)
    }

    public func signInWithCode(phone: String, code: String) async throws -> UserInfo {
        try await signIn(phone: phone, code: code)
    }
}
