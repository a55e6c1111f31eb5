import Foundation
import LatchCore

// The calls of issue 43's contract (docs/APPROVALS.md): sign in on the web with the phone (§1) and approve
// an action on the phone (§2).

extension APICall where Response == SignInApprovalStarted {
    /// `POST /v1/approvals` → 201 (no sign-in; a DPoP proof binds the session it may become).
    public static func startSignInApproval(_ request: SignInApprovalRequest) -> Self {
        Self(method: "POST", path: "/v1/approvals", body: request, requiresAuthorization: false)
    }
}

extension APICall where Response == SignInApprovalDetails {
    /// `GET /v1/approvals/{id}?scan_secret=` → 200: what asks, for the phone.
    public static func signInApproval(_ link: ApprovalLink) -> Self {
        Self(
            method: "GET",
            path: "/v1/approvals/\(segment(link.approvalID))?scan_secret=\(queryValue(link.scanSecret))",
            requiresAuthorization: true)
    }
}

extension APICall where Response == SignInApprovalDecided {
    /// `POST /v1/approvals/{id}/decision` → 200.
    public static func decideSignInApproval(id: String, _ decision: SignInApprovalDecision) -> Self {
        Self(method: "POST", path: "/v1/approvals/\(segment(id))/decision", body: decision, requiresAuthorization: true)
    }
}

extension APICall where Response == PendingPhoneApprovals {
    /// `GET /v1/approvals` → 200: the user's verifications waiting for a phone.
    public static var pendingPhoneApprovals: Self {
        Self(method: "GET", path: "/v1/approvals", requiresAuthorization: true)
    }
}

extension APICall where Response == PhoneVerificationDetails {
    /// `GET /v1/verifications/{id}` → 200.
    public static func phoneVerification(id: String) -> Self {
        Self(method: "GET", path: "/v1/verifications/\(segment(id))", requiresAuthorization: true)
    }
}

extension APICall where Response == PhoneVerificationDenied {
    /// `POST /v1/verifications/{id}/deny` → 200: the owner is mailed a freeze link.
    public static func denyPhoneVerification(id: String) -> Self {
        Self(
            method: "POST", path: "/v1/verifications/\(segment(id))/deny", body: EmptyBody(),
            requiresAuthorization: true)
    }
}

extension APICall where Response == PhoneApprovalStarted {
    /// `POST /v1/verifications` with `approve_on: "device"` → 201, with the number and the poll interval.
    public static func startPhoneApprovedVerification(_ request: PhoneApprovedVerificationRequest) -> Self {
        Self(method: "POST", path: "/v1/verifications", body: request, requiresAuthorization: true)
    }
}

extension APICall where Response == PhoneAttemptAnswer {
    /// `POST /v1/verifications/{id}/attempts` from the phone, with the picked number.
    static func phoneAttempt(_ attempt: VerificationAttempt, number: String, verificationID: String) -> Self {
        Self(
            method: "POST", path: "/v1/verifications/\(segment(verificationID))/attempts",
            body: NumberedVerificationAttempt(attempt: attempt, number: number), requiresAuthorization: true)
    }
}

extension APICall where Response == Void {
    /// `PUT /v1/device-credentials/{id}/push-token` → 204.
    public static func registerPushToken(credentialID: String, _ registration: PushTokenRegistration) -> Self {
        Self(
            method: "PUT", path: "/v1/device-credentials/\(segment(credentialID))/push-token", body: registration,
            requiresAuthorization: true)
    }

    /// `DELETE /v1/device-credentials/{id}/push-token` → 204.
    public static func removePushToken(credentialID: String) -> Self {
        Self(
            method: "DELETE", path: "/v1/device-credentials/\(segment(credentialID))/push-token",
            requiresAuthorization: true)
    }
}

extension APICall {
    /// `value` escaped for use as a query value.
    static func queryValue(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#?/")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
