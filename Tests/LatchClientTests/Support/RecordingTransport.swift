import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes latchd as a transport that records every request and answers with one fixed response (or error).
actor RecordingTransport: HTTPTransport {
    var answer: Result<HTTPResponse, URLError>
    private(set) var sent: [HTTPRequest] = []

    init(_ answer: Result<HTTPResponse, URLError>) { self.answer = answer }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        sent.append(request)
        return try answer.get()
    }
}
