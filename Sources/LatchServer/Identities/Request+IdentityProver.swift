import FluentKit
import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// The identity proofs of this request (Apple, WeChat, an SMS code).
    var identityProver: IdentityProver {
        IdentityProver(
            latch: latch, services: identityServices, metrics: latchMetrics, db: db, clientIP: clientIP,
            language: language, logger: logger)
    }
}
