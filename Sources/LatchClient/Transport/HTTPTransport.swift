import Foundation

/// One HTTP exchange, as small as the SDK needs: URLSession on Apple platforms and on Linux
/// (FoundationNetworking) implement it, tests fake it.
///
///     let response = try await transport.send(HTTPRequest(method: "GET", url: url, headers: ["Authorization": "Bearer …"]))
public protocol HTTPTransport: Sendable {
    /// Sends `request`; throws only when no HTTP answer arrived (network down, timeout, TLS failure).
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// A request to send.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An answer received.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
