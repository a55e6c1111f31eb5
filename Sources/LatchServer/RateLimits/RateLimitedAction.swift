/// The unauthenticated requests that cost latchd work (bcrypt, mail, SMS, database rows) or guess
/// at a secret, each priced by its own `RateLimitRule` before any of that work starts.
public enum RateLimitedAction: String, Sendable, CaseIterable {
    /// `POST /v1/token` with any grant but `refresh_token` (passwords, codes, signatures, providers).
    case signIn = "sign_in"
    /// `POST /v1/token` with grant `refresh_token` (cheap, but unauthenticated).
    case refresh
    /// `POST /v1/registrations` (a bcrypt hash and a mail).
    case registration
    /// `POST /v1/registrations/{id}/verify` and `POST /v1/password/reset` (guesses at a mailed code).
    case codeCheck = "code_check"
    /// `POST /v1/password/forgot` and `POST /v1/sms/codes` (a mail or an SMS).
    case codeSend = "code_send"
    /// `POST /v1/device-credentials/{id}/challenges` and `POST /v1/passkeys/authentication/options` (a database row).
    case deviceChallenge = "device_challenge"
    /// A request to `/v1/admin/*` whose admin key is wrong or missing (a right key gets its charge back).
    case adminAuth = "admin_auth"
    /// `POST /v1/approvals` (issue 43 §1: a row and a code to lure someone into scanning), charged by
    /// address and again by the asking device's id (`device.id`), wherever it asks from.
    case approval
}
