import Synchronization

/// Latch's routes as registered through `LatchRoutes` (method and path segments, `:name` capturing one):
/// which methods a path accepts, so a known path asked with another method answers 405 METHOD_NOT_ALLOWED
/// with `Allow` (RFC 9110 §15.5.6) instead of 404, and the list the route-walking tests read.
public final class RouteTable: Sendable {
    /// One registered route.
    public struct Route: Sendable, Hashable {
        public let method: String
        /// The path's segments; `:name` captures a segment.
        public let segments: [String]

        /// `/v1/sessions/:id`.
        public var path: String { "/" + segments.joined(separator: "/") }
    }

    private let routes = Mutex<[Route]>([])

    /// Every route, in the order registered.
    public var all: [Route] { routes.withLock { $0 } }

    func add(method: String, path: String) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        routes.withLock { $0.append(Route(method: method, segments: segments)) }
    }

    /// The methods allowed on `path`, sorted (HEAD wherever GET is), or empty when no route has this path.
    func methods(for path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // The router takes a literal segment before a parameter (`/v1/verifications/redeem` is not
        // `/v1/verifications/:id`), so only the most literal of the matching patterns answer.
        let matching = all.filter { Self.matches($0.segments, segments) }
        let literalness = { (route: Route) in route.segments.map { $0.hasPrefix(":") ? "0" : "1" }.joined() }
        let best = matching.map(literalness).max() ?? ""
        var methods = Set<String>()
        for route in matching where literalness(route) == best { methods.insert(route.method) }
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }

    private static func matches(_ pattern: [String], _ segments: [String]) -> Bool {
        pattern.count == segments.count
            && zip(pattern, segments).allSatisfy { template, segment in
                template.hasPrefix(":") || template == segment
            }
    }
}
