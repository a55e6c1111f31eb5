import FluentKit
import Foundation
import LatchCore
import Vapor

extension SMSCodeRequest: Content {}
extension SMSCodeAccepted: Content {}
extension LinkIdentityRequest: Content {}
extension UnlinkIdentityRequest: Content {}
extension EmailLinkCodeSent: Content {}

/// The HTTP edge of phone codes and of the signed-in account's identities (C1, `IdentityService`):
/// `POST /v1/sms/codes` texts a sign-in code; `POST /v1/me/identities` links one (201, or 202 when an
/// email link's code was mailed); `DELETE /v1/me/identities/{provider}` unlinks one (200, or 202 when
/// the email removal's code was mailed).
struct IdentityRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post("v1", "sms", "codes", use: sendCode)
        let identities = routes.grouped("v1", "me", "identities").grouped(RequireSignedIn())
        identities.post(use: link)
        identities.delete(":provider", use: unlink)
    }

    func sendCode(_ req: Request) async throws -> Response {
        try req.chargeRateLimit(.codeSend)
        let body = try req.decodeJSON(SMSCodeRequest.self)
        let phone = try Validate.phone(body.phone)
        let accepted = try await req.identityProver.sendPhoneCode(to: phone)
        return try await accepted.encodeResponse(status: .accepted, for: req)
    }

    func link(_ req: Request) async throws -> Response {
        let service = try req.identities
        let body = try req.decodeJSON(LinkIdentityRequest.self)
        guard let provider = SignInProvider(rawValue: body.provider) else {
            throw LatchError.invalid("provider", ["unsupported_provider"])
        }
        return try await Self.answer(try await service.link(provider, body), done: .created, req)
    }

    func unlink(_ req: Request) async throws -> Response {
        let service = try req.identities
        guard let provider = req.parameters.get("provider").flatMap(SignInProvider.init(rawValue:)) else {
            throw LatchError.notFound
        }
        let body = req.hasBody ? try req.decodeJSON(UnlinkIdentityRequest.self) : UnlinkIdentityRequest()
        return try await Self.answer(try await service.unlink(provider, body), done: .ok, req)
    }

    private static func answer(_ outcome: IdentityService.Outcome, done: HTTPStatus, _ req: Request) async throws
        -> Response
    {
        switch outcome {
        case .codeSent(let sent): try await sent.encodeResponse(status: .accepted, for: req)
        case .done(let profile): try await profile.encodeResponse(status: done, for: req)
        }
    }
}

extension Request {
    /// The signed-in session's identities (`IdentityService`).
    var identities: IdentityService {
        get throws {
            IdentityService(
                latch: latch, metrics: latchMetrics, services: identityServices, caller: try caller, db: db,
                logger: logger)
        }
    }
}
