import LatchCore

// The calls of the contract (ARCHITECTURE.md, "HTTP API") that the session layer uses.

extension APICall where Response == RegistrationAccepted {
    /// `POST /v1/registrations` → 202: a code was mailed.
    public static func register(_ registration: RegistrationRequest) -> Self {
        Self(method: "POST", path: "/v1/registrations", body: registration, requiresAuthorization: false)
    }
}

extension APICall where Response == TokenResponse {
    /// `POST /v1/registrations/{id}/verify` → 201: the account exists and is signed in.
    public static func verifyRegistration(id: String, code: String, device: DeviceInfo?) -> Self {
        Self(
            method: "POST", path: "/v1/registrations/\(segment(id))/verify",
            body: VerifyCodeRequest(code: code, device: device), requiresAuthorization: false)
    }

    /// `POST /v1/token` with any grant.
    public static func token(_ grant: TokenRequest) -> Self {
        Self(method: "POST", path: "/v1/token", body: grant, requiresAuthorization: false)
    }
}

extension APICall where Response == UserInfo {
    /// `GET /v1/me`.
    public static var me: Self { Self(method: "GET", path: "/v1/me", requiresAuthorization: true) }

    /// `PATCH /v1/me`.
    public static func updateProfile(_ update: UpdateProfileRequest) -> Self {
        Self(method: "PATCH", path: "/v1/me", body: update, requiresAuthorization: true)
    }
}

extension APICall where Response == [SessionInfo] {
    /// `GET /v1/sessions`: the signed-in devices, this one marked `current`.
    public static var sessions: Self { Self(method: "GET", path: "/v1/sessions", requiresAuthorization: true) }
}

extension APICall where Response == Void {
    /// `POST /v1/logout` → 204: ends this session on the server.
    public static var logout: Self { Self(method: "POST", path: "/v1/logout", requiresAuthorization: true) }

    /// `DELETE /v1/sessions/{id}` → 204.
    public static func revokeSession(id: String) -> Self {
        Self(method: "DELETE", path: "/v1/sessions/\(segment(id))", requiresAuthorization: true)
    }

    /// `DELETE /v1/sessions?scope=others` → 204: signs out every other device.
    public static var revokeOtherSessions: Self {
        Self(method: "DELETE", path: "/v1/sessions?scope=others", requiresAuthorization: true)
    }

    /// `POST /v1/password/forgot` → 202 (the same answer whether or not the account exists).
    public static func forgotPassword(email: String) -> Self {
        Self(
            method: "POST", path: "/v1/password/forgot", body: ForgotPasswordRequest(email: email),
            requiresAuthorization: false)
    }

    /// `POST /v1/password/reset` → 204; every session of the account ends.
    public static func resetPassword(_ reset: ResetPasswordRequest) -> Self {
        Self(method: "POST", path: "/v1/password/reset", body: reset, requiresAuthorization: false)
    }

    /// `POST /v1/password/change` → 204; the account's other sessions end.
    public static func changePassword(_ change: ChangePasswordRequest) -> Self {
        Self(method: "POST", path: "/v1/password/change", body: change, requiresAuthorization: true)
    }
}
