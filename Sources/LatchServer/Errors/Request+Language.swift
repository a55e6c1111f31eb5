import Hummingbird
import LatchCore

extension Request {
    /// The language of this request's answers, from `Accept-Language`.
    var language: LatchLanguage { LatchLanguage(acceptLanguage: headers[values: .acceptLanguage].first) }
}
