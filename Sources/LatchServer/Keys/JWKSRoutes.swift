import Vapor

/// `GET /.well-known/jwks.json`: the public keys that verify access tokens.
struct JWKSRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(".well-known", "jwks.json") { req in req.latch.accessTokens.keys.jwks }
    }
}
