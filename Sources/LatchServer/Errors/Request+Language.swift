import LatchCore
import Vapor

extension Request {
    /// The language of this request's answers, from `Accept-Language`.
    var language: LatchLanguage { LatchLanguage(acceptLanguage: headers.first(name: .acceptLanguage)) }
}
