import LatchCore

// The calls of issue 19's contract (CONTRACT-19, "HTTP"): the account's containment state, the
// anti-phishing code, and the "this wasn't me" freeze.

extension APICall where Response == AccountSecurityStatus {
    /// `GET /v1/me/security` → 200: the running security holds and the anti-phishing code.
    public static var accountSecurity: Self {
        Self(method: "GET", path: "/v1/me/security", requiresAuthorization: true)
    }
}

extension APICall where Response == Void {
    /// `PUT /v1/me/anti-phishing-code` → 204: sets or changes the code (4–20 visible characters).
    public static func setAntiPhishingCode(_ update: AntiPhishingCodeUpdate) -> Self {
        Self(method: "PUT", path: "/v1/me/anti-phishing-code", body: update, requiresAuthorization: true)
    }

    /// `DELETE /v1/me/anti-phishing-code` → 204, with the optional `{verification_token}` body.
    public static func removeAntiPhishingCode(_ proof: AntiPhishingCodeRemoval?) -> Self {
        Self(method: "DELETE", path: "/v1/me/anti-phishing-code", body: proof, requiresAuthorization: true)
    }

    /// `POST /v1/me/freeze` → 204: the signed-in owner freezes the account (no verification).
    public static var freezeAccount: Self {
        Self(method: "POST", path: "/v1/me/freeze", body: EmptyBody(), requiresAuthorization: true)
    }

    /// `POST /v1/freeze` → 202: a freeze link's token from a security mail; the same answer whether or not
    /// the token is valid.
    public static func freeze(_ request: FreezeRequest) -> Self {
        Self(method: "POST", path: "/v1/freeze", body: request, requiresAuthorization: false)
    }
}

/// The optional body of `DELETE /v1/me/anti-phishing-code`: a verification token for action
/// `set_anti_phishing_code`, needed when the sign-in is older than 10 minutes.
public struct AntiPhishingCodeRemoval: Encodable, Sendable, Equatable {
    public var verificationToken: String

    public init(verificationToken: String) { self.verificationToken = verificationToken }

    enum CodingKeys: String, CodingKey {
        case verificationToken = "verification_token"
    }
}

/// `{}`: the body of a POST that carries nothing.
struct EmptyBody: Encodable, Sendable {}
