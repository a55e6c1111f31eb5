import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore
import SQLKit

extension AccountSecurityStatus: ResponseEncodable {}

/// The HTTP edge of the account's containment (issue 19; the rules are `AccountSecurityService`'s):
/// `GET /v1/me/security` (the running hold and the
/// anti-phishing code), `PUT` / `DELETE /v1/me/anti-phishing-code` (a sign-in within 10 minutes or a
/// verification token for `set_anti_phishing_code`), `POST /v1/me/freeze` (the signed-in owner freezes,
/// no step-up: freezing must be easy) and `POST /v1/freeze` (a security mail's one-time link, no
/// sign-in; 202 whether or not the token is valid, rate limited per address like a code check).
struct AccountSecurityRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        routes.post("v1", "freeze", use: freezeByLink)
        let me = routes.grouped("v1", "me").signedIn()
        me.get("security", use: status)
        me.put("anti-phishing-code", use: setAntiPhishingCode)
        me.delete("anti-phishing-code", use: removeAntiPhishingCode)
        me.post("freeze", use: freezeSignedIn)
    }

    func status(_ req: LatchRequest) async throws -> AccountSecurityStatus {
        try await accountSecurity(req).status()
    }

    func setAntiPhishingCode(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let body = try req.decodeJSON(AntiPhishingCodeUpdate.self)
        try await accountSecurity(req).changeAntiPhishingCode(to: body.code, proof: body.verificationToken)
        return .noContent
    }

    func removeAntiPhishingCode(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let proof = req.hasBody ? try req.decodeJSON(OptionalVerificationToken.self).verificationToken : nil
        try await accountSecurity(req).changeAntiPhishingCode(to: nil, proof: proof)
        return .noContent
    }

    /// `POST /v1/me/freeze`: `{}` or no body; 204. This session ends with the others.
    func freezeSignedIn(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        if req.hasBody { _ = try req.decodeJSON(EmptyRequest.self) }
        try await accountSecurity(req).freeze()
        return .noContent
    }

    /// `POST /v1/freeze` `{token}`: 202 `{"status":"accepted"}` whether or not the token is valid; a
    /// valid, unused, unexpired token freezes its account (once).
    func freezeByLink(_ req: LatchRequest) async throws -> Response {
        try latch.chargeRateLimit(.codeCheck, for: req)
        let body = try req.decodeJSON(FreezeRequest.self)
        guard (1...128).contains(body.token.count) else { throw LatchError.invalid("token", ["invalid"]) }
        try await AccountFreezing.freeze(byLink: body.token, ip: req.clientIP, latch: latch, on: database(req))
        return try FreezeAccepted().encodeResponse(status: .accepted, for: req)
    }
}

extension AccountSecurityRoutes {
    /// `AccountSecurityService` for the signed-in session.
    func accountSecurity(_ req: LatchRequest) throws -> AccountSecurityService {
        AccountSecurityService(latch: latch, caller: try req.caller, db: database(req))
    }
}

/// The answer of `POST /v1/freeze`, the same for every token.
struct FreezeAccepted: ResponseEncodable {
    var status = "accepted"
}

/// A body that may carry a verification token.
private struct OptionalVerificationToken: Decodable {
    var verificationToken: String?

    enum CodingKeys: String, CodingKey { case verificationToken = "verification_token" }
}

/// A body that must be a JSON object (its members are ignored).
private struct EmptyRequest: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }
}
