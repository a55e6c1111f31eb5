import HTTPTypes
import Hummingbird

/// `GET /.well-known/jwks.json`: the public keys that verify access tokens: the signer and the keys
/// it superseded that have not retired yet.
struct JWKSRoutes: LatchRouteCollection {
    let latch: LatchServices

    func boot(routes: LatchRoutes) throws {
        routes.get(".well-known", "jwks.json") { req in
            latch.accessTokens.keys.jwks(now: latch.clock.epochSeconds)
        }
    }
}
