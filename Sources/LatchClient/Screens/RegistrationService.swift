import LatchCore

/// What the registration screen needs from the server; `LatchClient` is one, tests pass a fake.
///
///     let model = RegistrationScreenModel(service: client, language: .zhHans)
public protocol RegistrationService: Sendable {
    /// `POST /v1/registrations`: mails a 6-digit code and returns the registration id. Asking again
    /// (a resend) replaces the code and the id; too soon answers RATE_LIMITED with `retry_after`.
    func startRegistration(email: String, password: String, nickname: String?, acceptTerms: Bool) async throws -> String

    /// `POST /v1/registrations/{id}/verify`: creates the account and signs it in.
    func finishRegistration(id: String, code: String) async throws -> UserInfo
}

extension LatchClient: RegistrationService {
    public func startRegistration(email: String, password: String, nickname: String?, acceptTerms: Bool) async throws
        -> String
    {
        try await signUp(email: email, password: password, nickname: nickname, acceptTerms: acceptTerms)
    }

    public func finishRegistration(id: String, code: String) async throws -> UserInfo {
        try await verifyRegistration(id: id, code: code)
    }
}
