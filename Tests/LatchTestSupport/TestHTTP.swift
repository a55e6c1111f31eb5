import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The tests' HTTP client (AsyncHTTPClient, not the web framework's, so the tests talk to any edge): one
/// shared pool for the whole test process. The concurrency tests send up to 32 requests at once, and on a
/// loaded 2-core machine a pool of 8 connections per host with a 10 s wait for one made them time out
/// before latchd had answered: 64 connections, 60 s to connect, 120 s to read. It follows no redirect and
/// decompresses nothing, so a test sees exactly what latchd answered.
public enum TestHTTP {
    /// One answer: status, headers, and the body (nil when empty).
    public struct Answer: Sendable {
        public let status: HTTPResponseStatus
        public let headers: HTTPHeaders
        public let body: ByteBuffer?
    }

    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(60), read: .seconds(120)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64),
            decompression: .disabled))

    /// Sends `method` to `url` with `headers` and `body` (bytes as they are), and reads the whole answer, giving
    /// up after `giveUpAfter` (AsyncHTTPClient tries a refused connection again until then).
    public static func send(
        _ method: HTTPMethod, _ url: String, headers: HTTPHeaders = [:], body: ByteBuffer? = nil,
        giveUpAfter: TimeAmount = .seconds(180)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers = headers
        if let body { request.body = .bytes(body) }
        let response = try await client.execute(request, timeout: giveUpAfter)
        let bytes = try await response.body.collect(upTo: 32 << 20)
        return Answer(
            status: response.status, headers: response.headers, body: bytes.readableBytes > 0 ? bytes : nil)
    }

    /// `GET url`.
    public static func get(_ url: String, headers: HTTPHeaders = [:], giveUpAfter: TimeAmount = .seconds(180))
        async throws -> Answer
    {
        try await send(.GET, url, headers: headers, giveUpAfter: giveUpAfter)
    }

    /// `POST url` without a body.
    public static func post(_ url: String, headers: HTTPHeaders = [:]) async throws -> Answer {
        try await send(.POST, url, headers: headers)
    }
}
