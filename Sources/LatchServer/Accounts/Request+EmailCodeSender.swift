import Fluent
import Vapor

extension Request {
    /// The email code sender of this request (its services, database and language).
    var emailCodeSender: EmailCodeSender { EmailCodeSender(latch: latch, db: db, language: language) }
}
