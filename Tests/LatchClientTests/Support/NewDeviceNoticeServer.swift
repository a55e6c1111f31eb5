import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes latchd's new-device notice switch: `GET`/`PATCH /v1/me/security-settings`, turning it off needs token "vt-1"; records the PATCH bodies.
actor NewDeviceNoticeServer: HTTPTransport {
    let inner = SessionFakeServer()
    private(set) var notifyNewDevices = true
    private(set) var patchBodies: [String] = []

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        switch (request.method, SessionFakeServer.path(of: request)) {
        case ("GET", "/v1/me/security-settings"):
            return try SessionFakeServer.json(
                200, SecuritySettings(verifyUnusualSignIns: true, notifyNewDevices: notifyNewDevices))
        case ("PATCH", "/v1/me/security-settings"):
            patchBodies.append(String(decoding: request.body ?? Data(), as: UTF8.self))
            let update = try JSONDecoder().decode(SecuritySettingsUpdate.self, from: request.body ?? Data())
            if update.notifyNewDevices == false, update.verificationToken != "vt-1" {
                return SessionFakeServer.json(
                    403, #"{"error":"VERIFICATION_REQUIRED","message":"此操作需要先验证身份","field":"verification_token"}"#)
            }
            if let on = update.notifyNewDevices { notifyNewDevices = on }
            return try SessionFakeServer.json(
                200, SecuritySettings(verifyUnusualSignIns: true, notifyNewDevices: notifyNewDevices))
        default:
            return try await inner.send(request)
        }
    }
}
