import Vapor

/// `GET /.well-known/jwks.json`: the public keys that verify access tokens: the signer and the keys
/// it superseded that have not retired yet.
struct JWKSRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(".well-known", "jwks.json") { req in
            req.latch.accessTokens.keys.jwks(now: req.latch.clock.epochSeconds)
        }
    }
}
