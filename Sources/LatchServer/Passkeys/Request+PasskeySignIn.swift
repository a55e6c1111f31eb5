import FluentKit
import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// The passkey sign-in of this request (its services, database, client address and language).
    var passkeySignIn: PasskeySignIn {
        PasskeySignIn(latch: latch, db: db, clientIP: clientIP, language: language)
    }
}
