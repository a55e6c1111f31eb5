import Foundation
import LatchCore

extension LatchClient {
    /// `POST /v1/me/identities`: links Apple, WeChat or a phone to the signed-in account, proven as its
    /// sign-in would be (`identityToken`/`nonce`, `code`, `phone` + `code`); returns the profile with its
    /// identities. A session older than 10 minutes needs `verificationToken` (action `link_identity`).
    @discardableResult
    public func linkIdentity(_ request: LinkIdentityRequest) async throws -> UserInfo {
        try await perform(
            APICall<UserInfo>(method: "POST", path: "/v1/me/identities", body: request, requiresAuthorization: true))
    }

    /// First step of adding an email and password to an account that has none: mails a 6-digit code to
    /// `email`; returns the seconds it stays valid. Finish with ``confirmEmailLink(email:code:)``.
    @discardableResult
    public func linkEmail(_ email: String, password: String, verificationToken: String? = nil) async throws -> Int {
        try await perform(
            APICall<EmailLinkCodeSent>(
                method: "POST", path: "/v1/me/identities",
                body: LinkIdentityRequest(
                    provider: "email", email: email, password: password, verificationToken: verificationToken),
                requiresAuthorization: true)
        ).expiresIn
    }

    /// Second step: the mailed code adds the address (verified) and the password; returns the profile.
    @discardableResult
    public func confirmEmailLink(email: String, code: String) async throws -> UserInfo {
        try await linkIdentity(LinkIdentityRequest(provider: "email", code: code, email: email))
    }

    /// `DELETE /v1/me/identities/{provider}`: removes a way to sign in (never the last one). Removing
    /// `email` needs the `code` that `requestEmailRemovalCode()` mailed to the address, or a
    /// `verificationToken` for `unlink_identity` (issue 28 §2).
    @discardableResult
    public func unlinkIdentity(_ provider: String, verificationToken: String? = nil, code: String? = nil) async throws
        -> UserInfo
    {
        let body =
            verificationToken != nil || code != nil
            ? UnlinkIdentityRequest(verificationToken: verificationToken, code: code) : nil
        return try await perform(
            APICall<UserInfo>(
                method: "DELETE", path: "/v1/me/identities/\(APICall<UserInfo>.segment(provider))", body: body,
                requiresAuthorization: true))
    }

    /// First step of removing the account's email (issue 28 §2): mails a code to the address being
    /// removed (the session must have signed in within 10 minutes); pass it to `unlinkIdentity("email", code:)`.
    @discardableResult
    public func requestEmailRemovalCode() async throws -> EmailLinkCodeSent {
        try await perform(
            APICall<EmailLinkCodeSent>(
                method: "DELETE", path: "/v1/me/identities/email",
                requiresAuthorization: true))
    }
}
