import HTTPTypes
import Hummingbird
import NIOCore

/// A group of Latch's routes (or an embedding app's) on a Hummingbird router: paths are given as
/// segments (`":id"` captures a parameter), handlers take a `LatchRequest` whose body was read (at most
/// 64 KiB, else 413) before the handler runs, and return anything Hummingbird can answer with.
///
/// Get one from `LatchApplication.routes(on:)`: every route is also listed in the application's
/// `RouteTable` (for 405 answers and the tests that walk the routes), and `signedIn()` puts routes behind
/// the application's `RequireSignedIn`:
///
///     let routes = latch.routes(on: router)
///     routes.get("status") { _ in "ok" }
///     routes.signedIn().post("withdrawals") { req in try await withdraw(for: try req.signedIn.userID) }
public struct LatchRoutes {
    let group: RouterGroup<LatchRequestContext>
    let table: RouteTable
    /// The middleware of `signedIn()`, built with Latch's services.
    let requireSignedIn: RequireSignedIn
    /// The path segments of this group.
    let prefix: [String]

    init(
        group: RouterGroup<LatchRequestContext>, table: RouteTable, requireSignedIn: RequireSignedIn,
        prefix: [String] = []
    ) {
        self.group = group
        self.table = table
        self.requireSignedIn = requireSignedIn
        self.prefix = prefix
    }

    /// Routes under `path`.
    public func grouped(_ path: String...) -> LatchRoutes {
        LatchRoutes(
            group: group.group(Self.path(path)), table: table, requireSignedIn: requireSignedIn, prefix: prefix + path)
    }

    /// Routes behind `middleware`.
    public func grouped(_ middleware: some RouterMiddleware<LatchRequestContext>) -> LatchRoutes {
        LatchRoutes(
            group: group.group().add(middleware: middleware), table: table, requireSignedIn: requireSignedIn,
            prefix: prefix)
    }

    /// Routes only a signed-in session reaches (`RequireSignedIn`: a valid access token of a live session,
    /// else 401 AUTH_004); their handlers read it as `req.signedIn`.
    public func signedIn() -> LatchRoutes {
        grouped(requireSignedIn)
    }

    /// A GET route whose path is given as an array of segments.
    func get<Answer: ResponseGenerator>(
        _ path: [String], use handler: @escaping @Sendable (LatchRequest) async throws -> Answer
    ) {
        on(path, .get, handler)
    }

    public func get<Answer: ResponseGenerator>(
        _ path: String..., use handler: @escaping @Sendable (LatchRequest) async throws -> Answer
    ) {
        on(path, .get, handler)
    }

    public func post<Answer: ResponseGenerator>(
        _ path: String..., use handler: @escaping @Sendable (LatchRequest) async throws -> Answer
    ) {
        on(path, .post, handler)
    }

    public func put<Answer: ResponseGenerator>(
        _ path: String..., use handler: @escaping @Sendable (LatchRequest) async throws -> Answer
    ) {
        on(path, .put, handler)
    }

    public func patch<Answer: ResponseGenerator>(
        _ path: String..., use handler: @escaping @Sendable (LatchRequest) async throws -> Answer
    ) {
        on(path, .patch, handler)
    }

    public func delete<Answer: ResponseGenerator>(
        _ path: String..., use handler: @escaping @Sendable (LatchRequest) async throws -> Answer
    ) {
        on(path, .delete, handler)
    }

    private func on<Answer: ResponseGenerator>(
        _ path: [String], _ method: HTTPRequest.Method,
        _ handler: @escaping @Sendable (LatchRequest) async throws -> Answer
    ) {
        table.add(method: method.rawValue, path: (prefix + path).joined(separator: "/"))
        group.on(Self.path(path), method: method) { request, context in
            var request = request
            let body = try await request.collectBody(upTo: LatchRequestContext.maximumBodySize)
            let answer = try await handler(
                LatchRequest(request, context: context, body: body.readableBytes > 0 ? body : nil))
            return try answer.response(from: request, context: context)
        }
    }

    private static func path(_ segments: [String]) -> RouterPath {
        RouterPath(segments.joined(separator: "/"))
    }
}

/// A set of routes registered together (one feature's). A collection holds what its handlers need as
/// stored properties, given when `LatchApplication.install(on:)` builds it, so a handler's dependencies
/// are in its type:
///
///     struct SecurityEventRoutes: LatchRouteCollection {
///         let database: RequestDatabase
///         func boot(routes: LatchRoutes) throws { routes.signedIn().get("security-events", use: list) }
///     }
protocol LatchRouteCollection {
    func boot(routes: LatchRoutes) throws
}

extension ResponseEncodable {
    /// The value as a JSON answer with `status`.
    func encodeResponse(status: HTTPResponse.Status = .ok, for req: LatchRequest) throws -> Response {
        var response = try req.context.responseEncoder.encode(self, from: req.request, context: req.context)
        response.status = status
        return response
    }
}

extension Response {
    /// A 200 answer whose body is JSON encoded beforehand: the buffer is shared, not copied, and the
    /// headers are made once (`GET /health`, `GET /v1/me`, `GET /openapi.json`, the token answer).
    static func json(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: jsonHeaders, body: .init(byteBuffer: body))
    }

    private static let jsonHeaders: HTTPFields = [.contentType: "application/json; charset=utf-8"]
}
