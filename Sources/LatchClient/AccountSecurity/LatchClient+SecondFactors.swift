import Foundation
import LatchCore

extension LatchClient {
    /// `POST /v1/fund-password`: sets the fund password (first time: within 10 minutes of sign-in),
    /// or changes it with the current one or a verification token.
    public func setFundPassword(_ fundPassword: String, current: String? = nil, verificationToken: String? = nil)
        async throws
    {
        try await perform(
            APICall<Void>(
                method: "PUT", path: "/v1/fund-password",
                body: FundPasswordRequest(
                    fundPassword: fundPassword, currentFundPassword: current, verificationToken: verificationToken),
                requiresAuthorization: true))
    }

    /// `POST /v1/mfa/totp`: a new authenticator secret and its `otpauth://` URI.
    public func enrollTOTP(verificationToken: String? = nil) async throws -> TOTPEnrollment {
        try await perform(
            APICall<TOTPEnrollment>(
                method: "POST", path: "/v1/mfa/totp",
                body: verificationToken.map { VerificationTokenBody(verificationToken: $0) },
                requiresAuthorization: true))
    }

    /// `POST /v1/mfa/totp/activate`: turns 2FA on with a first code; returns the recovery codes (show them once).
    public func activateTOTP(code: String) async throws -> [String] {
        try await perform(
            APICall<TOTPActivated>(
                method: "POST", path: "/v1/mfa/totp/activate", body: TOTPActivationRequest(code: code),
                requiresAuthorization: true)
        ).recoveryCodes
    }

    /// `DELETE /v1/mfa/totp` with a verification token for action `disable_totp`.
    public func disableTOTP(verificationToken: String) async throws {
        try await perform(
            APICall<Void>(
                method: "DELETE", path: "/v1/mfa/totp",
                body: VerificationTokenBody(verificationToken: verificationToken),
                requiresAuthorization: true))
    }

    /// `POST /v1/verifications`: asks the server which methods can verify `action`.
    public func startVerification(_ request: VerificationRequest) async throws -> VerificationStarted {
        try await perform(
            APICall<VerificationStarted>(
                method: "POST", path: "/v1/verifications", body: request, requiresAuthorization: true))
    }

    /// `POST /v1/verifications/{id}/attempts`: one answer by one method.
    public func submitAttempt(_ attempt: VerificationAttempt, verificationID: String) async throws -> VerificationPassed
    {
        try await perform(
            APICall<VerificationPassed>(
                method: "POST",
                path: "/v1/verifications/\(APICall<VerificationPassed>.segment(verificationID))/attempts",
                body: attempt, requiresAuthorization: true))
    }

    /// `POST /v1/verifications/{id}/attempts` when a policy may ask for two factors (issue 30): `.passed`
    /// with the proof, or `.needsAnotherFactor` with the kinds passed so far and the offers still open.
    public func submitAttemptForResult(_ attempt: VerificationAttempt, verificationID: String) async throws
        -> VerificationAttemptResult
    {
        try await perform(
            APICall<VerificationAttemptResult>(
                method: "POST",
                path: "/v1/verifications/\(APICall<VerificationAttemptResult>.segment(verificationID))/attempts",
                body: attempt, requiresAuthorization: true))
    }

    /// `POST /v1/verifications/{id}/email-code` → 202 (issue 30): mails a 6-digit code for this verification,
    /// answered with `VerificationAttempt(method: .emailCode, code:)`. Within a minute of the last one the
    /// server answers 429 RATE_LIMITED with `retryAfter`.
    public func sendVerificationEmailCode(verificationID: String) async throws {
        try await perform(
            APICall<Void>(
                method: "POST", path: "/v1/verifications/\(APICall<Void>.segment(verificationID))/email-code",
                requiresAuthorization: true))
    }

    /// `POST /v1/verifications/redeem`: uses a proof, once, for exactly this action and these parameters.
    public func redeemVerification(_ token: String, action: String, parameters: [String: String]) async throws
        -> RedeemedVerification
    {
        try await perform(
            APICall<RedeemedVerification>(
                method: "POST", path: "/v1/verifications/redeem",
                body: RedeemVerificationRequest(verificationToken: token, action: action, parameters: parameters),
                requiresAuthorization: true))
    }
}
