import LatchCore

/// What the account containment screen needs (issue 19): the running holds and the anti-phishing code,
/// changing the code, and the "this wasn't me" freeze. `LatchClient` provides it; tests use a fake.
public protocol AccountContainmentService: Sendable {
    /// `GET /v1/me/security`.
    func accountSecurity() async throws -> AccountSecurityStatus
    /// `PUT /v1/me/anti-phishing-code`; VERIFICATION_REQUIRED asks for a token of `set_anti_phishing_code`.
    func setAntiPhishingCode(_ code: String, verificationToken: String?) async throws
    /// `DELETE /v1/me/anti-phishing-code`; the same recency rule.
    func removeAntiPhishingCode(verificationToken: String?) async throws
    /// `POST /v1/me/freeze`: every way in ends, this session too.
    func freezeAccount() async throws
}

extension LatchClient: AccountContainmentService {}
