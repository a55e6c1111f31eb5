import Foundation
import Vapor

extension Request {
    /// Whether the request carries a body (an optional JSON body may be absent).
    var hasBody: Bool { body.data.map { $0.readableBytes > 0 } == true }

    /// The route's `:id` as a UUID, nil when it is not one (the service answers 404).
    var idParameter: UUID? { parameters.get("id").flatMap(UUID.init(uuidString:)) }
}
