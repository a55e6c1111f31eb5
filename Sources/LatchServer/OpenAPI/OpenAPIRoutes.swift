import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /openapi.json`: the OpenAPI 3.1 document of the API, shipped as a resource and kept true
/// by a test that compares its paths with the registered routes.
struct OpenAPIRoutes: LatchRouteCollection {
    static let document: ByteBuffer = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { preconditionFailure("LatchServer's resource openapi.json is missing from the bundle") }
        return ByteBuffer(bytes: data)
    }()

    func boot(routes: LatchRoutes) throws {
        routes.get("openapi.json") { _ in Response.json(Self.document) }
    }
}
