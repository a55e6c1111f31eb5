import Foundation
import HTTPTypes
import Hummingbird
import LatchCore
import Logging
import NIOCore
import NIOFoundationCompat

/// A request as Latch's handlers read it: the Hummingbird request and its context, with the body already
/// collected (at most 64 KiB). Handlers of an app that embeds LatchServer get one from `LatchRoutes` too.
public struct LatchRequest: Sendable {
    /// The request as it arrived (its body already read into `body`).
    public let request: Request
    /// Its context (peer, event loop, who is asking).
    public internal(set) var context: LatchRequestContext
    /// The body, when the request had one; nil otherwise.
    public let body: ByteBuffer?

    init(_ request: Request, context: LatchRequestContext, body: ByteBuffer? = nil) {
        self.request = request
        self.context = context
        self.body = body
    }

    /// The request's logger (its metadata carries `request-id`).
    public var logger: Logger { context.logger }
    /// The header fields. Repeated fields: `headers[values: name]` lists each line, `headers[name]` joins them.
    public var headers: HTTPFields { request.headers }
    public var method: HTTPRequest.Method { request.method }
    /// The path as it arrived (percent-encoded, without the query).
    public var path: String { request.uri.path }
    /// The TCP peer.
    public var remoteAddress: SocketAddress? { context.remoteAddress }
    /// The `Host` the client sent (Hummingbird keeps it as the request's authority).
    var host: String? { request.head.authority }

    /// Whether the request carries a non-empty body.
    public var hasBody: Bool { (body?.readableBytes ?? 0) > 0 }

    /// The query's parameters, decoded as forms are (`+` is a space; keys and values percent-decoded; the
    /// last of repeated keys wins).
    public var query: QueryParameters { QueryParameters(request.uri.query) }

    /// The route's captured parameters, percent-decoded.
    public var parameters: PathParameters { PathParameters(context.parameters) }

    /// The `{id}` parameter as a UUID; nil when absent or not a UUID.
    var idParameter: UUID? { parameters.get("id").flatMap(UUID.init(uuidString:)) }

    /// Decodes the JSON body, insisting on `Content-Type: application/json` (the rule of `JSONBodyMiddleware`,
    /// checked here too for routes an embedding app adds) so the errors are the API's own. A body that is
    /// not UTF-8 or names a key twice in one object is refused first (400 MALFORMED_BODY, `StrictJSONBody`).
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        guard let body, body.readableBytes > 0 else { throw LatchError(.malformedBody) }
        guard JSONBodyMiddleware.isJSON(headers) else { throw LatchError(.unsupportedMediaType) }
        if let refusal = body.withUnsafeReadableBytes({ StrictJSONBody.refusal(of: $0) }) { throw refusal.error }
        return try LatchJSON.decoder.decode(T.self, from: body)
    }
}

/// A request's query parameters, with the form rules latchd's clients were written against:
/// `+` is a space, keys and values are percent-decoded, the last of repeated keys wins, and a value that is
/// not valid percent-encoding reads as absent.
public struct QueryParameters: Sendable {
    private let pairs: [(key: String, value: String?)]

    init(_ query: String?) {
        pairs = (query ?? "").split(separator: "&", omittingEmptySubsequences: true).compactMap { part in
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = Self.decoded(halves[0]) else { return nil }
            return (key, halves.count > 1 ? Self.decoded(halves[1]) : "")
        }
    }

    private static func decoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The value of `key` (the last when repeated); nil when absent or undecodable.
    public subscript(_ type: String.Type, at key: String) -> String? {
        guard let last = pairs.last(where: { $0.key == key }) else { return nil }
        return last.value
    }
}

/// A route's captured parameters, percent-decoded as a path segment is (a segment that is not valid
/// percent-encoding is kept as it arrived).
public struct PathParameters: Sendable {
    let raw: Parameters

    init(_ raw: Parameters) { self.raw = raw }

    public func get(_ name: String) -> String? {
        guard let value = raw.get(name) else { return nil }
        return value.removingPercentEncoding ?? value
    }
}
