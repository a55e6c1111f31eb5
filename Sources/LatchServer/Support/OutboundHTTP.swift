import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// latchd's calls to other services (Apple's keys and token endpoints, WeChat, an SMS gateway) over
/// AsyncHTTPClient, without the web framework (issue 29 §2). Answers are read whole, up to 1 MiB. Visible to
/// the package: `latchd events-receiver` fetches its JWKS with it.
package struct OutboundHTTP: Sendable {
    /// An answer: its status and body.
    package struct Response: Sendable {
        package let status: UInt
        package let body: Data
    }

    /// The largest answer read; a longer one fails like an unreachable service.
    static let maximumAnswerBytes = 1 << 20

    let client: HTTPClient

    /// latchd's client, for the life of the process: no redirects followed (an answer from another host is
    /// not trusted, and a secret in a form is never sent on), no decompression, and a refused connection
    /// fails at once instead of being retried until the deadline.
    package static let shared: OutboundHTTP = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)), decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        // No spans of its own: a span names the URL, and WeChat's carries the app secret and the code in its
        // query (issue 29 §2: no span carries a secret). The request's span covers the call's time.
        configuration.tracing.tracer = nil
        return OutboundHTTP(
            client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration))
    }()

    /// GETs `url`.
    package func get(_ url: String, timeout: TimeAmount) async throws -> Response {
        try await execute(HTTPClientRequest(url: url), timeout: timeout)
    }

    /// POSTs `body` of `contentType` to `url`, with `headers` besides.
    func post(
        _ url: String, contentType: String, body: Data, headers: [(String, String)] = [], timeout: TimeAmount
    ) async throws -> Response {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(data: body))
        return try await execute(request, timeout: timeout)
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded` to `url`.
    func postForm(_ url: String, _ fields: KeyValuePairs<String, String>, timeout: TimeAmount) async throws
        -> Response
    {
        try await post(
            url, contentType: "application/x-www-form-urlencoded", body: Data(Self.formEncoded(fields).utf8),
            timeout: timeout)
    }

    private func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> Response {
        let response = try await client.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
        return Response(status: response.status.code, body: Data(buffer: body))
    }

    /// `fields` form-encoded (WHATWG `application/x-www-form-urlencoded`: unreserved characters kept,
    /// space as `+`, everything else percent-encoded as UTF-8).
    static func formEncoded(_ fields: KeyValuePairs<String, String>) -> String {
        fields.map { "\(formEscaped($0.key))=\(formEscaped($0.value))" }.joined(separator: "&")
    }

    private static func formEscaped(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "*"):
                escaped.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " "):
                escaped.append("+")
            default:
                escaped += String(format: "%%%02X", byte)
            }
        }
        return escaped
    }
}
