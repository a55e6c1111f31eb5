import FluentKit
import LatchCore
import Vapor

/// The HTTP edge of App Attest (issue 31 §2): `POST /v1/app-attest/challenges` for a signed-in user, a
/// challenge for the attestation that a device key bind (`POST /v1/device-credentials`) then carries.
struct AppAttestRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("v1", "app-attest", "challenges").grouped(RequireSignedIn()).post(use: challenge)
    }

    func challenge(_ req: Request) async throws -> Response {
        try req.chargeRateLimit(.deviceChallenge)
        let info = try await AppAttestService(latch: req.latch, db: req.db).challenge(for: try req.caller)
        return try await info.encodeResponse(status: .created, for: req)
    }
}
