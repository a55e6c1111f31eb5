import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// `POST /v1/token`, the HTTP edge of `TokenService`: charges the grant's rate limit, parses the body once
/// into its `Grant`, runs it and counts the outcome (`latch_sign_ins_total`).
struct TokenRoutes: LatchRouteCollection {
    let latch: LatchServices
    let metrics: LatchMetrics
    let identityServices: IdentityServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        routes.post("v1", "token") { req in Response.json(try await token(req).jsonBody()) }
    }

    func token(_ req: LatchRequest) async throws -> TokenResponse {
        let body = try req.decodeJSON(TokenRequest.self)
        try body.credential?.checkEncoding()
        let signIns = metrics.signIns
        let database = database(req)
        do {
            try latch.chargeRateLimit(Self.rateLimitedAction(of: body.grantType), for: req)
            let grant = try Grant(body)
            var service = tokens(req, on: database)
            // The proof is checked (and used up) before the grant: a refused proof costs no guess.
            service.dpopKey = try await latch.dpop.grantKey(
                proofs: req.headers[values: .dpop], latch.dpop.presentation(of: req),
                now: latch.clock.now.timeIntervalSince1970,
                on: database)
            let tokens = try await service.issue(grant)
            signIns.increment(body.grantType.rawValue, "succeeded")
            return tokens
        } catch {
            signIns.increment(body.grantType.rawValue, LatchMetrics.outcome(of: error))
            throw error
        }
    }

    /// The rate limit a grant is charged to: refreshing is cheap and frequent, every other grant
    /// proves a secret (and the password grant runs bcrypt), so they share the tight sign-in limit.
    static func rateLimitedAction(of grant: TokenRequest.GrantType) -> RateLimitedAction {
        switch grant {
        case .refreshToken: .refresh
        case .password, .deviceSignature, .apple, .wechat, .smsCode, .loginChallenge, .passkey, .approval: .signIn
        }
    }
}

extension TokenRoutes {
    /// The token grants of `req` (`TokenService`), on the request's `database` (opened once per request).
    func tokens(_ req: LatchRequest, on database: any Database) -> TokenService {
        TokenService(
            latch: latch, metrics: metrics, identities: identityServices, db: database, clientIP: req.clientIP,
            language: req.language, logger: req.logger)
    }
}
