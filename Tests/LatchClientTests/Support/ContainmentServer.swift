import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes latchd's issue 19 endpoints (security state, anti-phishing code, freeze, reset's second factor, SECURITY_HOLD) over `SessionFakeServer`.
actor ContainmentServer: HTTPTransport {
    static let startedAt = Date(timeIntervalSince1970: 1_795_665_600)
    static let holdUntil = startedAt.addingTimeInterval(24 * 3600)
    static let totpCode = "246810"

    let inner = SessionFakeServer()
    var recentSignIn = true
    var antiPhishingCode: String?
    var frozen = false
    var holdsWithdrawals = false
    private(set) var bodies: [String: [Data?]] = [:]
    private(set) var authorizations: [String: [String?]] = [:]

    func set(recentSignIn: Bool) { self.recentSignIn = recentSignIn }
    func set(frozen: Bool) { self.frozen = frozen }
    func set(holdsWithdrawals: Bool) { self.holdsWithdrawals = holdsWithdrawals }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = SessionFakeServer.path(of: request)
        let key = "\(request.method) \(path)"
        bodies[key, default: []].append(request.body)
        authorizations[key, default: []].append(request.headers["Authorization"])
        switch (request.method, path) {
        case ("POST", "/v1/freeze"):
            return SessionFakeServer.json(202, #"{"status":"accepted"}"#)
        case ("POST", "/v1/password/reset"):
            return reset(request)
        case ("POST", "/v1/token") where frozen:
            return Self.frozenAnswer
        case ("GET", "/v1/me/security"), ("PUT", "/v1/me/anti-phishing-code"),
            ("DELETE", "/v1/me/anti-phishing-code"), ("POST", "/v1/me/freeze"), ("POST", "/v1/verifications"):
            guard let token = try await live(request) else { return SessionFakeServer.sessionExpired }
            return try await signedIn(request, key: key, token: token)
        default:
            return try await inner.send(request)
        }
    }

    private func signedIn(_ request: HTTPRequest, key: String, token: String) async throws -> HTTPResponse {
        switch key {
        case "GET /v1/me/security":
            let holds =
                holdsWithdrawals
                ? [
                    SecurityHoldInfo(
                        actions: ["withdrawal"], reason: "password_reset", startedAt: Self.startedAt,
                        holdUntil: Self.holdUntil)
                ] : []
            return try SessionFakeServer.json(
                200, AccountSecurityStatus(holds: holds, antiPhishingCode: antiPhishingCode))
        case "PUT /v1/me/anti-phishing-code":
            let update = try JSONDecoder().decode(AntiPhishingCodeUpdate.self, from: request.body ?? Data())
            guard (4...20).contains(update.code.count), !update.code.contains(" ") else {
                return SessionFakeServer.json(
                    422, #"{"error":"VALIDATION_FAILED","message":"Invalid input.","field":"code"}"#)
            }
            guard recentSignIn || update.verificationToken == "proof-1" else { return Self.verificationRequired }
            antiPhishingCode = update.code
            return HTTPResponse(status: 204)
        case "DELETE /v1/me/anti-phishing-code":
            let proof = request.body.flatMap { try? JSONDecoder().decode([String: String].self, from: $0) }
            guard recentSignIn || proof?["verification_token"] == "proof-1" else {
                return Self.verificationRequired
            }
            antiPhishingCode = nil
            return HTTPResponse(status: 204)
        case "POST /v1/me/freeze":
            frozen = true
            await inner.refuse(accessToken: token)
            return HTTPResponse(status: 204)
        default: // POST /v1/verifications
            guard holdsWithdrawals else {
                return try SessionFakeServer.json(
                    201,
                    VerificationStarted(
                        verificationId: "v-1", methods: [VerificationMethodOffer(type: .fundPassword)],
                        preferred: .fundPassword, expiresIn: 300))
            }
            let body = APIErrorBody(
                error: "SECURITY_HOLD", message: "For your security, this action is paused.",
                details: LatchErrorDetails(holdUntil: Self.holdUntil, reason: "password_reset", action: "withdrawal"))
            return try SessionFakeServer.json(403, body)
        }
    }

    private func reset(_ request: HTTPRequest) -> HTTPResponse {
        guard let reset = try? JSONDecoder().decode(ResetPasswordRequest.self, from: request.body ?? Data()) else {
            return SessionFakeServer.json(400, #"{"error":"MALFORMED_BODY","message":"x"}"#)
        }
        if frozen {
            guard let second = reset.secondFactor else {
                return SessionFakeServer.json(
                    403,
                    #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","method":"totp","field":"second_factor"}"#
                )
            }
            guard second == Self.totpCode else {
                return SessionFakeServer.json(
                    400, #"{"error":"AUTH_003","message":"The verification code is wrong or has expired."}"#)
            }
            frozen = false
        }
        return HTTPResponse(status: 204)
    }

    /// The bearer token when the inner server still accepts it.
    private func live(_ request: HTTPRequest) async throws -> String? {
        var probe = request
        probe.method = "GET"
        probe.url = URL(string: "https://auth.example.com/v1/me")!
        probe.body = nil
        guard try await inner.send(probe).status == 200 else { return nil }
        return SessionFakeServer.bearer(of: request)
    }

    static let verificationRequired = SessionFakeServer.json(
        403,
        #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","field":"verification_token"}"#
    )
    static let frozenAnswer = SessionFakeServer.json(
        403,
        #"{"error":"ACCOUNT_FROZEN","message":"This account is frozen. Reset your password by email to recover it."}"#
    )
}
