import Foundation
import Testing

@testable import LatchClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
/// C10 transport: `URLSessionTransport` over real sockets (FoundationNetworking here), against a
/// one-request-at-a-time HTTP/1.1 server on the loopback interface.
@Suite("URLSession transport (C10)")
struct TransportURLSessionTests {
    @Test func C10_sendsMethodHeadersAndBodyAndReadsTheAnswer() async throws {
        // Set-up: a server that echoes what it got.
        let server = try LoopbackHTTPServer { head, body in
            let firstLine = head.split(separator: "\r\n").first.map(String.init) ?? ""
            let authorization = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("authorization:") }
            let echo = "\(firstLine)|\(authorization.map(String.init) ?? "-")|\(String(decoding: body, as: UTF8.self))"
            return (201, ["Content-Type": "text/plain", "X-Echo": "yes"], Data(echo.utf8))
        }
        defer { server.stop() }
        let transport = URLSessionTransport()

        // Act
        let response = try await transport.send(
            HTTPRequest(
                method: "POST", url: URL(string: "http://127.0.0.1:\(server.port)/v1/token")!,
                headers: ["Authorization": "Bearer abc", "Content-Type": "application/json"],
                body: Data(#"{"a":1}"#.utf8)))

        // Check
        #expect(response.status == 201)
        #expect(response.header("x-echo") == "yes")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"POST /v1/token HTTP/1.1|Authorization: Bearer abc|{"a":1}"#)
    }

    @Test func C11_latchErrorsArriveOverRealHTTP() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            (
                423, ["Content-Type": "application/json"],
                Data(#"{"error":"AUTH_002","message":"账号已被锁定","locked_until":"2026-01-02T03:09:05Z"}"#.utf8)
            )
        }
        defer { server.stop() }
        let api = LatchAPI(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!, transport: URLSessionTransport())

        let error = await #expect(throws: LatchClientError.self) {
            try await api.passwordGrant(email: "a@example.com", password: "Secret123")
        }

        #expect(error?.code == .locked)
        #expect(error?.serverError?.lockedUntil == Date(timeIntervalSince1970: 1_767_323_345))
    }

    @Test func C11_refusedConnectionIsANetworkError() async throws {
        // A port that was just free: nothing listens there now.
        let server = try LoopbackHTTPServer { _, _ in (200, [:], Data()) }
        let port = server.port
        server.stop()
        let api = LatchAPI(serverURL: URL(string: "http://127.0.0.1:\(port)")!, transport: URLSessionTransport())

        let error = await #expect(throws: LatchClientError.self) { try await api.me(accessToken: "t") }

        guard case .network = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
    }
}
