import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of device keys for biometric sign-in (B5, B6): each handler parses its request once and
/// calls one method of `DeviceCredentialService`, where the rules are (issue 29 §1).
struct DeviceCredentialRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    static let limit = DeviceCredentialStore.limit
    /// The step-up action that unbinds a key without a recent sign-in.
    static let unbindAction = VerificationAction.unbindDevice

    func boot(routes: LatchRoutes) throws {
        let credentials = routes.grouped("v1", "device-credentials")
        credentials.post(":id", "challenges", use: challenge)
        let signedIn = credentials.signedIn()
        signedIn.post(use: bind)
        signedIn.get(use: list)
        signedIn.delete(":id", use: unbind)
    }

    func bind(_ req: LatchRequest) async throws -> Response {
        let body = try req.decodeJSON(DeviceCredentialRequest.self)
        let created = try await deviceCredentials(req).bind(body, by: try req.caller)
        return try created.encodeResponse(status: .created, for: req)
    }

    /// See `DeviceCredentialService.protection`.
    static func protection(_ declared: String?) throws -> DeviceKeyProtection {
        try DeviceCredentialService.protection(declared)
    }

    func list(_ req: LatchRequest) async throws -> [DeviceCredentialInfo] {
        try await deviceCredentials(req).list(of: try req.caller)
    }

    func unbind(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let proof = req.hasBody ? try req.decodeJSON(UnbindDeviceCredentialRequest.self).verificationToken : nil
        try await deviceCredentials(req).unbind(
            req.idParameter, proof: proof, by: try req.caller)
        return .noContent
    }

    func challenge(_ req: LatchRequest) async throws -> Response {
        try latch.chargeRateLimit(.deviceChallenge, for: req)
        let info = try await deviceCredentials(req).loginChallenge(
            for: req.idParameter)
        return try info.encodeResponse(status: .created, for: req)
    }
}

extension DeviceCredentialRoutes {
    /// `DeviceCredentialService` on `req`'s database.
    func deviceCredentials(_ req: LatchRequest) -> DeviceCredentialService {
        DeviceCredentialService(latch: latch, db: database(req))
    }
}
