import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of App Attest (issue 31 §2): `POST /v1/app-attest/challenges` for a signed-in user, a
/// challenge for the attestation that a device key bind (`POST /v1/device-credentials`) then carries.
struct AppAttestRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        routes.grouped("v1", "app-attest", "challenges").signedIn().post(use: challenge)
    }

    func challenge(_ req: LatchRequest) async throws -> Response {
        try latch.chargeRateLimit(.deviceChallenge, for: req)
        let info = try await AppAttestService(latch: latch, db: database(req)).challenge(for: try req.caller)
        return try info.encodeResponse(status: .created, for: req)
    }
}
