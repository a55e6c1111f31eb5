import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// The HTTP edge of `RegistrationService`: `POST /v1/registrations` and
/// `POST /v1/registrations/{id}/verify`, each parsed and validated once.
struct RegistrationRoutes: LatchRouteCollection {
    let latch: LatchServices
    let metrics: LatchMetrics
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        let registrations = routes.grouped("v1", "registrations")
        registrations.post(use: register)
        registrations.post(":id", "verify", use: verify)
    }

    func register(_ req: LatchRequest) async throws -> Response {
        try latch.chargeRateLimit(.registration, for: req)
        let body = try req.decodeJSON(RegistrationRequest.self)
        let email = try Validate.email(body.email)
        try Validate.newPassword(body.password, policy: latch.passwordPolicy, field: "password")
        guard body.termsAccepted else { throw LatchError.invalid("terms_accepted", ["must_accept"]) }
        let nickname = try Validate.nickname(body.nickname)
        let accepted = try await registrations(req).register(email: email, password: body.password, nickname: nickname)
        return try accepted.encodeResponse(status: .accepted, for: req)
    }

    func verify(_ req: LatchRequest) async throws -> Response {
        try latch.chargeRateLimit(.codeCheck, for: req)
        let body = try req.decodeJSON(VerifyCodeRequest.self)
        try Validate.sixDigitCode(body.code)
        guard let id = req.idParameter else {
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        var service = registrations(req)
        service.dpopKey = try await latch.dpop.grantKey(
            proofs: req.headers[values: .dpop], latch.dpop.presentation(of: req),
            now: latch.clock.now.timeIntervalSince1970,
            on: database(req))
        let tokens = try await service.verify(id, code: body.code, device: body.device)
        return try tokens.encodeResponse(status: .created, for: req)
    }
}

extension RegistrationRoutes {
    /// Registration for `req` (`RegistrationService`).
    func registrations(_ req: LatchRequest) -> RegistrationService {
        RegistrationService(
            latch: latch, metrics: metrics, db: database(req), clientIP: req.clientIP, language: req.language)
    }
}
