import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes latchd for the account screens: `GET`/`PATCH /v1/me/security-settings` (turning a check off needs token "vt-1") and an export that always needs a verification.
actor AccountScreensServer: HTTPTransport {
    let inner = SessionFakeServer()
    private(set) var verifyUnusualSignIns = true
    private(set) var notifyNewDevices = true
    private(set) var patches: [SecuritySettingsUpdate] = []

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = SessionFakeServer.path(of: request)
        switch (request.method, path) {
        case ("GET", "/v1/me/export"):
            // The export needs a recent sign-in (issue 20 §4): the screens must not depend on it.
            return SessionFakeServer.json(
                403, #"{"error":"VERIFICATION_REQUIRED","message":"此操作需要先验证身份","field":"verification_token"}"#)
        case ("GET", "/v1/me/security-settings"):
            // With the factors (issue 20 §4): the settings screen no longer reads the export.
            return try SessionFakeServer.json(
                200,
                SecuritySettings(
                    verifyUnusualSignIns: verifyUnusualSignIns, notifyNewDevices: notifyNewDevices,
                    factors: .init(totp: false, fundPassword: true, biometric: false, recoveryCodesRemaining: 0)
                ))
        case ("PATCH", "/v1/me/security-settings"):
            let update = try JSONDecoder().decode(SecuritySettingsUpdate.self, from: request.body ?? Data())
            patches.append(update)
            let turnsOff = update.verifyUnusualSignIns == false || update.notifyNewDevices == false
            if turnsOff, update.verificationToken != "vt-1" {
                return SessionFakeServer.json(
                    403,
                    #"{"error":"VERIFICATION_REQUIRED","message":"此操作需要先验证身份","field":"verification_token"}"#)
            }
            if let on = update.verifyUnusualSignIns { verifyUnusualSignIns = on }
            if let on = update.notifyNewDevices { notifyNewDevices = on }
            return try SessionFakeServer.json(
                200,
                SecuritySettings(verifyUnusualSignIns: verifyUnusualSignIns, notifyNewDevices: notifyNewDevices)
            )
        default:
            return try await inner.send(request)
        }
    }
}
