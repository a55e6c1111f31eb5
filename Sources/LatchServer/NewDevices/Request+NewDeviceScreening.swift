import Fluent
import Vapor

extension Request {
    /// The new-device screening of this request (its services, database, client address and language).
    var newDeviceScreening: NewDeviceScreening {
        NewDeviceScreening(latch: latch, db: db, clientIP: clientIP, language: language)
    }
}
