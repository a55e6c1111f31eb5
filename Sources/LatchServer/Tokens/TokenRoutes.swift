import Fluent
import LatchCore
import Vapor

/// `POST /v1/token`: the `password` and `refresh_token` grants (C4, C5, C6). Other grants of the
/// contract arrive with their features and answer 422 `unsupported_grant_type` until then.
struct TokenRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post("v1", "token", use: token)
    }

    func token(_ req: Request) async throws -> TokenResponse {
        let body = try req.decodeJSON(TokenRequest.self)
        switch body.grantType {
        case .password:
            return try await passwordGrant(body, req)
        case .refreshToken:
            return try await refreshGrant(body, req)
        case .deviceSignature, .apple, .wechat, .smsCode, .loginChallenge:
            throw LatchError.invalid("grant_type", ["unsupported_grant_type"])
        }
    }

    private func passwordGrant(_ body: TokenRequest, _ req: Request) async throws -> TokenResponse {
        guard let rawEmail = body.email else { throw LatchError(.validationFailed, status: .badRequest, field: "email", reasons: ["missing"]) }
        guard let password = body.password else { throw LatchError(.validationFailed, status: .badRequest, field: "password", reasons: ["missing"]) }
        let email = try Validate.email(rawEmail)
        try Validate.presentedPassword(password)
        let latch = req.latch
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970

        let account = try await User.query(on: req.db).filter(\.$email == email.value).first()
        let user = try await req.checkPassword(password, of: account, throttleKey: "email:\(email.value)")
        let (session, tokens) = try await latch.rotation.start(
            user: user, device: body.device, ip: req.clientIP, now: now, on: req.db)
        try await latch.events.record(.signedIn, user: user.id, session: session.id, ip: req.clientIP, now: seconds, on: req.db)
        return tokens
    }

    private func refreshGrant(_ body: TokenRequest, _ req: Request) async throws -> TokenResponse {
        guard let token = body.refreshToken else {
            throw LatchError(.validationFailed, status: .badRequest, field: "refresh_token", reasons: ["missing"])
        }
        guard !token.isEmpty, token.utf8.count <= 256 else { throw LatchError.sessionExpired }
        let latch = req.latch
        let now = latch.clock.now
        switch try await latch.rotation.refresh(token, now: now, on: req.db) {
        case .rotated(let tokens):
            return tokens
        case .invalid:
            throw LatchError.sessionExpired
        case .replayed(let userID, let sessionID):
            latch.sessionStatus.markRevoked([sessionID])
            try await latch.events.record(
                .refreshTokenReused, user: userID, session: sessionID, ip: req.clientIP, now: now.timeIntervalSince1970,
                on: req.db)
            throw LatchError.sessionExpired
        }
    }
}
