import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import LatchCore

extension SMSCodeRequest: ResponseEncodable {}
extension SMSCodeAccepted: ResponseEncodable {}
extension LinkIdentityRequest: ResponseEncodable {}
extension UnlinkIdentityRequest: ResponseEncodable {}
extension EmailLinkCodeSent: ResponseEncodable {}

/// The HTTP edge of phone codes and of the signed-in account's identities (C1, `IdentityService`):
/// `POST /v1/sms/codes` texts a sign-in code; `POST /v1/me/identities` links one (201, or 202 when an
/// email link's code was mailed); `DELETE /v1/me/identities/{provider}` unlinks one (200, or 202 when
/// the email removal's code was mailed).
struct IdentityRoutes: LatchRouteCollection {
    let latch: LatchServices
    let metrics: LatchMetrics
    let identityServices: IdentityServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        routes.post("v1", "sms", "codes", use: sendCode)
        let identities = routes.grouped("v1", "me", "identities").signedIn()
        identities.post(use: link)
        identities.delete(":provider", use: unlink)
    }

    func sendCode(_ req: LatchRequest) async throws -> Response {
        try latch.chargeRateLimit(.codeSend, for: req)
        let body = try req.decodeJSON(SMSCodeRequest.self)
        let phone = try Validate.phone(body.phone)
        let accepted = try await identityProver(req).sendPhoneCode(to: phone)
        return try accepted.encodeResponse(status: .accepted, for: req)
    }

    func link(_ req: LatchRequest) async throws -> Response {
        let service = try identities(req)
        let body = try req.decodeJSON(LinkIdentityRequest.self)
        guard let provider = SignInProvider(rawValue: body.provider) else {
            throw LatchError.invalid("provider", ["unsupported_provider"])
        }
        return try await Self.answer(try await service.link(provider, body), done: .created, req)
    }

    func unlink(_ req: LatchRequest) async throws -> Response {
        let service = try identities(req)
        guard let provider = req.parameters.get("provider").flatMap(SignInProvider.init(rawValue:)) else {
            throw LatchError.notFound
        }
        let body = req.hasBody ? try req.decodeJSON(UnlinkIdentityRequest.self) : UnlinkIdentityRequest()
        return try await Self.answer(try await service.unlink(provider, body), done: .ok, req)
    }

    private static func answer(_ outcome: IdentityService.Outcome, done: HTTPResponse.Status, _ req: LatchRequest)
        async throws
        -> Response
    {
        switch outcome {
        case .codeSent(let sent): try sent.encodeResponse(status: .accepted, for: req)
        case .done(let profile): try profile.encodeResponse(status: done, for: req)
        }
    }
}

extension IdentityRoutes {
    /// The signed-in session's identities (`IdentityService`).
    func identities(_ req: LatchRequest) throws -> IdentityService {
        IdentityService(
            latch: latch, metrics: metrics, services: identityServices, caller: try req.caller, db: database(req),
            logger: req.logger)
    }

    /// The identity proofs of `req` (Apple, WeChat, an SMS code).
    func identityProver(_ req: LatchRequest) -> IdentityProver {
        IdentityProver(
            latch: latch, services: identityServices, metrics: metrics, db: database(req), clientIP: req.clientIP,
            language: req.language, logger: req.logger)
    }
}
