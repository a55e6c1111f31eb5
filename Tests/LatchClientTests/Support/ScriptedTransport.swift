import Synchronization

@testable import LatchClient

/// Answers with `responses` in turn (then 200), and records every request.
final class ScriptedTransport: HTTPTransport {
    private let state: Mutex<(responses: [HTTPResponse], requests: [HTTPRequest])>

    init(_ responses: [HTTPResponse]) { state = Mutex((responses, [])) }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        state.withLock { state in
            state.requests.append(request)
            return state.responses.isEmpty ? HTTPResponse(status: 200) : state.responses.removeFirst()
        }
    }
}
