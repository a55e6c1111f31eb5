import FluentKit
import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// The secret guard of this request (its services, database, client address and language).
    var secretGuard: SecretGuard {
        SecretGuard(latch: latch, metrics: latchMetrics, db: db, clientIP: clientIP, language: language)
    }
}
