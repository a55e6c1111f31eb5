import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of `RegistrationService`: `POST /v1/registrations` and
/// `POST /v1/registrations/{id}/verify`, each parsed and validated once.
struct RegistrationRoutes: LatchRouteCollection {
    func boot(routes: LatchRoutes) throws {
        let registrations = routes.grouped("v1", "registrations")
        registrations.post(use: register)
        registrations.post(":id", "verify", use: verify)
    }

    func register(_ req: LatchRequest) async throws -> Response {
        try req.chargeRateLimit(.registration)
        let body = try req.decodeJSON(RegistrationRequest.self)
        let email = try Validate.email(body.email)
        try Validate.newPassword(body.password, policy: req.latch.passwordPolicy, field: "password")
        guard body.termsAccepted else { throw LatchError.invalid("terms_accepted", ["must_accept"]) }
        let nickname = try Validate.nickname(body.nickname)
        let accepted = try await req.registrations.register(email: email, password: body.password, nickname: nickname)
        return try accepted.encodeResponse(status: .accepted, for: req)
    }

    func verify(_ req: LatchRequest) async throws -> Response {
        try req.chargeRateLimit(.codeCheck)
        let body = try req.decodeJSON(VerifyCodeRequest.self)
        try Validate.sixDigitCode(body.code)
        guard let id = req.idParameter else {
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        var registrations = req.registrations
        registrations.dpopKey = try await req.latch.dpop.grantKey(
            proofs: req.headers[values: .dpop], req.dpopPresentation, now: req.latch.clock.now.timeIntervalSince1970,
            on: req.db)
        let tokens = try await registrations.verify(id, code: body.code, device: body.device)
        return try tokens.encodeResponse(status: .created, for: req)
    }
}

extension LatchRequest {
    /// Registration for this request (`RegistrationService`).
    var registrations: RegistrationService {
        RegistrationService(latch: latch, metrics: latchMetrics, db: db, clientIP: clientIP, language: language)
    }
}
