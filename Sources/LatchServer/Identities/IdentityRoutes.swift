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
    func boot(routes: LatchRoutes) throws {
        routes.post("v1", "sms", "codes", use: sendCode)
        let identities = routes.grouped("v1", "me", "identities").grouped(RequireSignedIn())
        identities.post(use: link)
        identities.delete(":provider", use: unlink)
    }

    func sendCode(_ req: LatchRequest) async throws -> Response {
        try req.chargeRateLimit(.codeSend)
        let body = try req.decodeJSON(SMSCodeRequest.self)
        let phone = try Validate.phone(body.phone)
        let accepted = try await req.identityProver.sendPhoneCode(to: phone)
        return try accepted.encodeResponse(status: .accepted, for: req)
    }

    func link(_ req: LatchRequest) async throws -> Response {
        let service = try req.identities
        let body = try req.decodeJSON(LinkIdentityRequest.self)
        guard let provider = SignInProvider(rawValue: body.provider) else {
            throw LatchError.invalid("provider", ["unsupported_provider"])
        }
        return try await Self.answer(try await service.link(provider, body), done: .created, req)
    }

    func unlink(_ req: LatchRequest) async throws -> Response {
        let service = try req.identities
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

extension LatchRequest {
    /// The signed-in session's identities (`IdentityService`).
    var identities: IdentityService {
        get throws {
            IdentityService(
                latch: latch, metrics: latchMetrics, services: identityServices, caller: try caller, db: db,
                logger: logger)
        }
    }
}
