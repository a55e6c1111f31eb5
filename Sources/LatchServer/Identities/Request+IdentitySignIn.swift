import Fluent
import Vapor

extension Request {
    /// The identity sign-in of this request (its services, database, client address and language).
    var identitySignIn: IdentitySignIn {
        IdentitySignIn(latch: latch, db: db, clientIP: clientIP, language: language)
    }

    /// The identity proofs of this request (Apple, WeChat, an SMS code).
    var identityProver: IdentityProver {
        IdentityProver(
            latch: latch, services: identityServices, metrics: latchMetrics, db: db, clientIP: clientIP,
            language: language, logger: logger)
    }
}
