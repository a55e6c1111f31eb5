import FluentKit
import Vapor

extension Request {
    /// The passkey sign-in of this request (its services, database, client address and language).
    var passkeySignIn: PasskeySignIn {
        PasskeySignIn(latch: latch, db: db, clientIP: clientIP, language: language)
    }
}
