import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

/// `POST /v1/token`, the HTTP edge of `TokenService`: charges the grant's rate limit, parses the body once
/// into its `Grant`, runs it and counts the outcome (`latch_sign_ins_total`).
struct TokenRoutes: LatchRouteCollection {
    func boot(routes: LatchRoutes) throws {
        routes.post("v1", "token") { req in Response.json(try await token(req).jsonBody()) }
    }

    func token(_ req: LatchRequest) async throws -> TokenResponse {
        let body = try req.decodeJSON(TokenRequest.self)
        try body.credential?.checkEncoding()
        let signIns = req.latchMetrics.signIns
        do {
            try req.chargeRateLimit(Self.rateLimitedAction(of: body.grantType))
            let grant = try Grant(body)
            var service = req.tokens
            // The proof is checked (and used up) before the grant: a refused proof costs no guess.
            service.dpopKey = try await req.latch.dpop.grantKey(
                proofs: req.headers[values: .dpop], req.dpopPresentation,
                now: req.latch.clock.now.timeIntervalSince1970,
                on: req.db)
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

extension LatchRequest {
    /// The token grants of this request (`TokenService`).
    var tokens: TokenService {
        TokenService(
            latch: latch, metrics: latchMetrics, identities: identityServices, db: db, clientIP: clientIP,
            language: language, logger: logger)
    }
}
