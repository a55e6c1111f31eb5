import Foundation
import LatchCore

extension LatchClient {
    /// `GET /v1/me`; a changed profile is kept and announced.
    public func me() async throws -> UserInfo {
        let user = try await perform(APICall<UserInfo>.me)
        await coordinator.userChanged(user)
        return user
    }

    /// Changes the nickname (`PATCH /v1/me`).
    @discardableResult
    public func updateNickname(_ nickname: String?) async throws -> UserInfo {
        let user = try await perform(APICall<UserInfo>.updateProfile(UpdateProfileRequest(nickname: nickname)))
        await coordinator.userChanged(user)
        return user
    }

    /// The signed-in devices of the account (C8), this one marked `current`.
    public func sessions() async throws -> [SessionInfo] {
        try await perform(APICall<[SessionInfo]>.sessions)
    }

    /// Signs out one device (C8). Revoking this device's own session signs out here too.
    public func revokeSession(id: String) async throws {
        try await perform(APICall<Void>.revokeSession(id: id))
        if await coordinator.session?.sessionID == id {
            await coordinator.signOut()
        }
    }

    /// Signs out every other device (C8).
    public func revokeOtherSessions() async throws {
        try await perform(APICall<Void>.revokeOtherSessions)
    }

    /// Mails a password reset code (the same answer whether or not the account exists).
    public func forgotPassword(email: String) async throws {
        try await api.forgotPassword(email: email)
    }

    /// Sets a new password with the mailed code; every session of the account ends (this one too, at
    /// its next request).
    ///
    /// A frozen account with 2FA on also needs the second factor (issue 19 §3): without it the server
    /// answers VERIFICATION_REQUIRED with `field == "second_factor"` (``LatchClientError/needsSecondFactor``);
    /// ask for the authenticator's code or a recovery code and call again with `secondFactor`. A wrong one
    /// is AUTH_003. Success unfreezes the account and starts a security hold.
    public func resetPassword(email: String, code: String, newPassword: String, secondFactor: String? = nil)
        async throws
    {
        try await api.resetPassword(
            ResetPasswordRequest(email: email, code: code, newPassword: newPassword, secondFactor: secondFactor))
    }

    /// Changes the password, knowing the current one; the account's other sessions end.
    public func changePassword(current: String, new: String) async throws {
        try await perform(
            APICall<Void>.changePassword(ChangePasswordRequest(currentPassword: current, newPassword: new)))
    }
}
