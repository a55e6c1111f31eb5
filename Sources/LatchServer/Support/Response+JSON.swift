import NIOCore
import Vapor

extension Response {
    /// A 200 answer whose body is JSON encoded beforehand: the buffer is shared, not copied, and the
    /// headers are made once (`GET /health`, `GET /v1/me`, `GET /openapi.json`, the token answer).
    static func json(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: jsonHeaders, body: .init(buffer: body))
    }

    private static let jsonHeaders: HTTPHeaders = {
        var headers = HTTPHeaders()
        headers.contentType = .json
        return headers
    }()
}
