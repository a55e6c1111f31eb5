import Fluent
import LatchCore
import SQLKit
import Vapor

extension AccountSecurityStatus: Content {}

/// The account's containment (issue 19): `GET /v1/me/security` (the running hold and the
/// anti-phishing code), `PUT` / `DELETE /v1/me/anti-phishing-code` (a sign-in within 10 minutes or a
/// verification token for `set_anti_phishing_code`), `POST /v1/me/freeze` (the signed-in owner freezes,
/// no step-up: freezing must be easy) and `POST /v1/freeze` (a security mail's one-time link, no
/// sign-in; 202 whether or not the token is valid, rate limited per address like a code check).
struct AccountSecurityRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post("v1", "freeze", use: freezeByLink)
        let me = routes.grouped("v1", "me").grouped(RequireSignedIn())
        me.get("security", use: status)
        me.put("anti-phishing-code", use: setAntiPhishingCode)
        me.delete("anti-phishing-code", use: removeAntiPhishingCode)
        me.post("freeze", use: freezeSignedIn)
    }

    func status(_ req: Request) async throws -> AccountSecurityStatus {
        let me = try req.signedIn
        let latch = req.latch
        guard let user = try await User.find(me.userID, on: req.db) else { throw LatchError.sessionExpired }
        let holds = latch.holds
        let running = try await holds.running(of: me.userID, now: latch.clock.epochSeconds, on: req.db)
        // The code itself only to a recent sign-in (issue 28 §2): an old stolen token sees it masked.
        let recent = try await Session.find(me.sessionID, on: req.db).map {
            latch.clock.epochSeconds - $0.signedInAt <= Request.recentSignIn
        }
        return AccountSecurityStatus(
            holds: running.map { [holds.info($0)] } ?? [],
            antiPhishingCode: recent == true
                ? user.antiPhishingCode : user.antiPhishingCode.map(AntiPhishingCode.masked))
    }

    func setAntiPhishingCode(_ req: Request) async throws -> HTTPStatus {
        let body = try req.decodeJSON(AntiPhishingCodeUpdate.self)
        let code = try AntiPhishingCode.validated(body.code)
        try await req.requireRecentSignIn(orProof: body.verificationToken, action: AntiPhishingCode.action)
        try await changeAntiPhishingCode(to: code, req)
        return .noContent
    }

    func removeAntiPhishingCode(_ req: Request) async throws -> HTTPStatus {
        let hasBody = req.body.data.map { $0.readableBytes > 0 } == true
        let proof = hasBody ? try req.decodeJSON(OptionalVerificationToken.self).verificationToken : nil
        try await req.requireRecentSignIn(orProof: proof, action: AntiPhishingCode.action)
        try await changeAntiPhishingCode(to: nil, req)
        return .noContent
    }

    /// Stores the new code, records `anti_phishing_code_changed` and mails a security notice (showing
    /// the new code, with a freeze link), all in one transaction (issue 20 §1).
    private func changeAntiPhishingCode(to code: String?, _ req: Request) async throws {
        let me = try req.signedIn
        try await req.db.transaction { database in
            guard
                try await database.sql.raw(
                    """
                    UPDATE users SET anti_phishing_code = \(bind: code) WHERE id = \(bind: me.userID) RETURNING id
                    """
                ).first() != nil
            else { throw LatchError.sessionExpired }
            try await req.securityChanged(code == nil ? .antiPhishingCodeRemoved : .antiPhishingCodeSet, on: database)
        }
    }

    /// `POST /v1/me/freeze`: `{}` or no body; 204. This session ends with the others.
    func freezeSignedIn(_ req: Request) async throws -> HTTPStatus {
        let me = try req.signedIn
        if req.body.data.map({ $0.readableBytes > 0 }) == true { _ = try req.decodeJSON(EmptyRequest.self) }
        try await AccountFreezing.freeze(
            me.userID, by: .owner, session: me.sessionID, ip: req.clientIP, latch: req.latch, on: req.db)
        return .noContent
    }

    /// `POST /v1/freeze` `{token}`: 202 `{"status":"accepted"}` whether or not the token is valid; a
    /// valid, unused, unexpired token freezes its account (once).
    func freezeByLink(_ req: Request) async throws -> Response {
        try req.chargeRateLimit(.codeCheck)
        let body = try req.decodeJSON(FreezeRequest.self)
        guard (1...128).contains(body.token.count) else { throw LatchError.invalid("token", ["invalid"]) }
        let latch = req.latch
        if let userID = try await FreezeTokens.use(body.token, now: latch.clock.epochSeconds, on: req.db) {
            try await AccountFreezing.freeze(userID, by: .freezeLink, ip: req.clientIP, latch: latch, on: req.db)
        }
        return try await FreezeAccepted().encodeResponse(status: .accepted, for: req)
    }
}

/// The answer of `POST /v1/freeze`, the same for every token.
struct FreezeAccepted: Content {
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
