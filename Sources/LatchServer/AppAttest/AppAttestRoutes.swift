import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of App Attest (issue 31 §2): `POST /v1/app-attest/challenges` for a signed-in user, a
/// challenge for the attestation that a device key bind (`POST /v1/device-credentials`) then carries.
struct AppAttestRoutes: LatchRouteCollection {
    func boot(routes: LatchRoutes) throws {
        routes.grouped("v1", "app-attest", "challenges").grouped(RequireSignedIn()).post(use: challenge)
    }

    func challenge(_ req: LatchRequest) async throws -> Response {
        try req.chargeRateLimit(.deviceChallenge)
        let info = try await AppAttestService(latch: req.latch, db: req.db).challenge(for: try req.caller)
        return try info.encodeResponse(status: .created, for: req)
    }
}
