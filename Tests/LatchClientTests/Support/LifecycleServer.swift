import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes latchd's `DELETE /v1/me` and `GET /v1/me/export` (VERIFICATION_REQUIRED without a recent sign-in or proof) over `SessionFakeServer`.
actor LifecycleServer: HTTPTransport {
    let inner = SessionFakeServer()
    var recentSignIn = true
    var appleRevocation = AppleRevocation.notPossible
    private(set) var deleteBodies: [Data?] = []
    private(set) var exportProofs: [String?] = []

    func set(recentSignIn: Bool) { self.recentSignIn = recentSignIn }

    static let export = AccountExport(
        exportedAt: Date(timeIntervalSince1970: 1_800_000_000), user: SessionFakeServer.alice,
        securitySettings: SecuritySettings(verifyUnusualSignIns: true), sessions: [], deviceCredentials: [],
        knownDevices: [.init(deviceId: "install-1", firstSeenAt: Date(timeIntervalSince1970: 1_700_000_000))],
        factors: .init(totp: false, fundPassword: true, biometric: false, recoveryCodesRemaining: 0),
        securityEvents: [
            SecurityEventInfo(
                id: "e-1", type: "registered", sessionId: nil, ip: "127.0.0.1",
                createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        ])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = SessionFakeServer.path(of: request)
        let exporting = request.method == "GET" && (path == "/v1/me/export" || path.hasPrefix("/v1/me/export?"))
        guard (request.method, path) == ("DELETE", "/v1/me") || exporting
        else {
            return try await inner.send(request)
        }
        // Whether the bearer token is live, as the inner server sees it.
        var probe = request
        probe.method = "GET"
        probe.url = URL(string: "https://auth.example.com/v1/me")!
        probe.body = nil
        guard try await inner.send(probe).status == 200, let token = SessionFakeServer.bearer(of: request) else {
            return SessionFakeServer.sessionExpired
        }
        if request.method == "GET" {
            // Issue 20 §4: the export is guarded like the deletion; its proof comes as a query parameter.
            let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let proof = query.first { $0.name == "verification_token" }?.value
            exportProofs.append(proof)
            guard recentSignIn || proof == "proof+/1" else {
                return SessionFakeServer.json(
                    403,
                    #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","field":"verification_token"}"#
                )
            }
            return try SessionFakeServer.json(200, Self.export)
        }
        deleteBodies.append(request.body)
        let proof = request.body.flatMap { try? JSONDecoder().decode(DeleteAccountRequest.self, from: $0) }?
            .verificationToken
        guard recentSignIn || proof == "proof-1" else {
            return SessionFakeServer.json(
                403,
                #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","field":"verification_token"}"#
            )
        }
        await inner.refuse(accessToken: token)
        return try SessionFakeServer.json(200, AccountDeleted(appleRevocation: appleRevocation))
    }
}
