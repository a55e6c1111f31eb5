import HTTPTypes
import Hummingbird
import LatchCore

extension LatchRequest {
    /// The `limit` query parameter of a paged list: a whole number (its range is the list's), else 400.
    var pageLimitParameter: Int? {
        get throws {
            guard let raw = query[String.self, at: "limit"] else { return nil }
            guard let limit = Int(raw) else {
                throw LatchError(.validationFailed, field: "limit", reasons: ["wrong_type"])
            }
            return limit
        }
    }
}
