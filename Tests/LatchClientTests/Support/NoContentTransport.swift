import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes latchd as a transport that records every request and answers 204 No Content.
actor NoContentTransport: HTTPTransport {
    private(set) var sent: [HTTPRequest] = []
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        sent.append(request)
        return HTTPResponse(status: 204)
    }
}
